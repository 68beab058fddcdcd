import { alertFormPath, alertPlanKey, alertSentPath, lastSeenZip, messages, type AlertLocation, type SendPetAlert } from '@petreg/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { petAlerts, petBreeds, pets, plans, users } from '../../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { findZip } from '../../geography.js';
import type { Session } from '../../plugins/auth.js';
import { currentChip, hasActiveCover } from '../payments/shared.js';
import { findOwnedPet, ownedOrRefused } from '../pets/ownership.js';
import { sendAlert } from './dispatch.js';
import { countAlertRecipients } from './recipients.js';
import { cancelAlertCheckouts, lockPetAndAlert, type AlertDeps } from './shared.js';

type PetRow = typeof pets.$inferSelect;

/** Sending an alert (spec 4, Lost alert): the form's alert is kept NEW, then sent at once when free, or after its checkout. */
export function createAlertSending(deps: AlertDeps) {
  const { db, payments, publicUrl, onFanOut } = deps;

  /**
   * The pet, when it exists and the session may act on it (404 or 403 otherwise), with what sending its
   * alert needs to know first: how many breeds it has and its owner's home ZIP. One statement.
   */
  async function petToAlert(session: Session, petId: number) {
    const [found] = await db
      .select({
        pet: pets,
        breeds: sql<number>`(select count(*) from ${petBreeds} where ${petBreeds.petId} = ${pets.id})`.mapWith(Number),
        homeZip: users.zipcode,
      })
      .from(pets)
      .innerJoin(users, eq(users.id, pets.userId))
      .where(and(eq(pets.id, petId), isNull(pets.deletedAt)));
    return ownedOrRefused(session, found && { ...found, userId: found.pet.userId });
  }

  /** The form's rules (spec 5) the stored pet must meet before strangers are asked to look for it; every unmet one at once. */
  function unmetPetRules(pet: PetRow, breeds: number): string[] {
    const rules: [boolean, string][] = [
      [Boolean(pet.image), messages.petImageRequired],
      [Boolean(pet.speciesId), messages.petSpeciesRequired],
      [breeds > 0, messages.breedsRequired],
      [pet.sex > 0, messages.petSexRequired],
      [Boolean(pet.dob), messages.dobRequired],
    ];
    return rules.filter(([met]) => !met).map(([, message]) => message);
  }

  /**
   * In the transaction that holds the pet's lock: a pet with active protection sends its alert at no
   * charge (its plan promises instant notifications), now; otherwise the alert waits for its checkout.
   */
  async function sendIfFree(tx: Transaction, petId: number, alertId: number): Promise<boolean> {
    const chip = await currentChip(tx, petId, { lock: true });
    if (!chip || !hasActiveCover(chip)) return false;
    await sendAlert(tx, alertId, { publicUrl, payment: null, onFanOut });
    // A checkout opened before the pet was covered would charge for what went out free.
    await cancelAlertCheckouts(tx, alertId);
    return true;
  }

  /** The next step of a NEW alert: the confirmation page once sent for free, otherwise its checkout. */
  async function nextStep(pet: PetRow, alertId: number, sent: boolean): Promise<AlertLocation> {
    if (sent) return { location: alertSentPath(pet.id) };
    const [price] = await db.select().from(plans).where(eq(plans.planKey, alertPlanKey));
    return payments.openCheckout({
      pet,
      plan: price!,
      amountCents: price!.priceCents,
      coupon: null,
      creditCents: 0,
      collarTagCents: null,
      chipRowId: null,
      alertId,
      cancelPath: alertFormPath(pet.id),
    });
  }

  return {
    /**
     * POST petalert/send-mail-from-pet-alert: the pet's alert, NEW (the open NEW one is reused with
     * the form's details), then sent at once when free; answers where the browser goes next.
     */
    async send(session: Session, input: SendPetAlert): Promise<AlertLocation> {
      const { pet, breeds, homeZip } = await petToAlert(session, input.petId);
      const unmet = unmetPetRules(pet, breeds);
      if (unmet.length) throw new AppError(400, unmet);
      const zipCode = lastSeenZip({ homeZipIsLastSeen: !input.zipCode, zipCode: input.zipCode ?? null }, homeZip);
      if (!zipCode) throw badRequest(messages.zipcodeRequired);
      const place = await findZip(db, zipCode);
      if (!place) throw badRequest(messages.zipUnknown);
      // Nobody to e-mail: no alert to send, nor to charge for.
      if ((await countAlertRecipients(db, pet.id, place, new Date())) === 0) throw badRequest(messages.alertReachesNobody);
      const details = { missingDate: new Date(input.missingDate), zipCode, incidentDescription: input.incidentDescription };
      const { alertId, sent } = await db.transaction(async (tx) => {
        const open = await lockPetAndAlert(tx, pet.id);
        if (open?.status === 'paid') throw conflict(messages.alertAlreadySent);
        const [alert] = open
          ? await tx.update(petAlerts).set(details).where(eq(petAlerts.id, open.id)).returning({ id: petAlerts.id })
          : await tx.insert(petAlerts).values({ ...details, petId: pet.id, status: 'NEW' }).returning({ id: petAlerts.id });
        return { alertId: alert!.id, sent: await sendIfFree(tx, pet.id, alert!.id) };
      });
      return nextStep(pet, alertId, sent);
    },

    /** POST checkout/checkout-lpa: the checkout of the pet's alert that waits for payment (or, when now free, the alert sent). */
    async checkout(session: Session, petId: number): Promise<AlertLocation> {
      const pet = await findOwnedPet(db, session, petId);
      const { alertId, sent } = await db.transaction(async (tx) => {
        const open = await lockPetAndAlert(tx, pet.id);
        if (!open) throw notFound(messages.noAlertsFound);
        if (open.status === 'paid') throw conflict(messages.alertAlreadySent);
        return { alertId: open.id, sent: await sendIfFree(tx, pet.id, open.id) };
      });
      return nextStep(pet, alertId, sent);
    },
  };
}
