import type { AlertLocation, NamedItem, Pet, PetAlert, StaticData } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { expect } from 'vitest';
import { alertEmails, sites } from '../src/db/schema.js';
import { findZip } from '../src/geography.js';
import { call, registerPet, signUpOwner, type TestContext } from './helpers.js';

/** The worker's settings in alert tests. */
export const alertMailSettings = {
  publicUrl: 'http://localhost:3000',
  supportPhone: '(800) 555-0142',
  mailFrom: 'Pet Registry <alerts@registry.example>',
  inboundMailDomain: null,
  /** The test app's secret (helpers.ts), so that the links the worker writes open in the test app. */
  secret: 'test-secret-test-secret-test-secret!',
};

let siteCounter = 0;

/**
 * What the alert tests share: directory sites placed by distance, owners of lost pets, sending and
 * paying alerts. Takes the test context lazily, as the file's beforeAll creates it.
 */
export function alertKit(context: () => TestContext) {
  const db = () => context().database.db;
  const app = () => context().app;
  let references: Promise<{ dog: number; beagle: NamedItem; photo: string }> | undefined;
  /** The dog species, the Beagle breed and a photo, read once. */
  const refs = () =>
    (references ??= (async () => {
      const data = (await call<StaticData>(app(), 'GET', 'utilities/static-data')).body.result!;
      const dog = data.species.find((s) => s.name === 'Dog')!.id;
      const beagle = (await call<NamedItem[]>(app(), 'GET', `utilities/breeds-by-species/${dog}`)).body.result!.find((b) => b.name === 'Beagle')!;
      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#c08040' } }).png().toBuffer();
      return { dog, beagle, photo: `data:image/png;base64,${png.toString('base64')}` };
    })());

  /** A directory site that many miles due north of the ZIP's centre (on earthdistance's sphere). */
  async function siteNear(zip: string, milesNorth: number, values: Partial<typeof sites.$inferInsert> = {}) {
    const centre = (await findZip(db(), zip))!;
    const degrees = ((milesNorth * 1609.344) / 6378168) * (180 / Math.PI);
    const [site] = await db()
      .insert(sites)
      .values({
        name: `Clinic ${++siteCounter}`,
        email: `clinic${siteCounter}-${Date.now()}@vets.example`,
        receivesAlerts: true,
        latitude: centre.latitude + degrees,
        longitude: centre.longitude,
        zipCode: zip,
        source: 'admin',
        ...values,
      })
      .returning();
    return site!;
  }

  /** The pet's fields as the lost alert form sends them with PUT Pet/pet-profile. */
  async function profileOf(pet: Pet, changes: Record<string, unknown> = {}) {
    const { dog, beagle, photo } = await refs();
    return {
      id: pet.id,
      name: pet.name,
      speciesId: dog,
      breeds: [beagle],
      sex: 1,
      dob: '2020-05-01',
      image: photo,
      chipId: pet.microchip1 ?? '',
      confirmChip: pet.microchip1 ?? '',
      chipTypeId: pet.chips[0]?.chipTypeId ?? null,
      ...changes,
    };
  }

  /** An owner with a pet registered without a chip (No microchip? → Send Lost Pet Alert), its form filled in. */
  async function ownerWithLostPet(changes: Record<string, unknown> = {}) {
    const owner = await signUpOwner(app());
    const pet = await registerPet(app(), owner.token, null);
    const saved = await call<Pet>(app(), 'PUT', 'Pet/pet-profile', { token: owner.token, body: await profileOf(pet, changes) });
    expect(saved.status).toBe(200);
    return { ...owner, pet: saved.body.result! };
  }

  const sendAlert = (token: string | undefined, petId: number, changes: Record<string, unknown> = {}) =>
    call<AlertLocation>(app(), 'POST', 'petalert/send-mail-from-pet-alert', {
      token,
      body: {
        name: 'Biscuit',
        petId,
        missingDate: new Date(Date.now() - 3600_000).toISOString(),
        zipCode: '63101',
        incidentDescription: 'Slipped the leash near the park.',
        status: 'NEW',
        ...changes,
      },
    });

  const sessionIdOf = (location: string) => location.split('/checkout/')[1]!;

  const payCheckout = (token: string, location: string) =>
    call<{ location: string }>(app(), 'POST', `checkout/local/${sessionIdOf(location)}/pay`, {
      token,
      body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
    });

  /** Sends the pet's alert and pays it on the portal's checkout; answers the alert as the owner reads it. */
  async function sendAndPay(token: string, petId: number, changes: Record<string, unknown> = {}) {
    const sent = await sendAlert(token, petId, changes);
    expect(sent.status).toBe(200);
    expect((await payCheckout(token, sent.body.result!.location)).status).toBe(200);
    return (await call<PetAlert>(app(), 'GET', `petalert/alerts/bypet/${petId}`, { token })).body.result!;
  }

  /** The addresses an alert's e-mails (or its thank-you notes) go to, sorted. */
  const recipientsOf = async (alertId: number, kind = 'alert') =>
    (await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alertId), eq(alertEmails.kind, kind)))).map((r) => r.recipient).sort();

  return { siteNear, profileOf, ownerWithLostPet, sendAlert, sessionIdOf, payCheckout, sendAndPay, recipientsOf };
}
