import { createHmac, timingSafeEqual } from 'node:crypto';
import { alertPreferenceLimits, alertPreferencesForm, messages, type AlertPreferencesValues } from '@petreg/contract';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { alertEmails, alertPreferences, emailUnsubscribes, sites, species } from '../../db/schema.js';
import { localDate } from './localTime.js';

/**
 * The preferences link of an alert e-mail names its row and is signed with the portal's secret for
 * the row's address: no sign-in, and a changed id or signature finds nothing. It does not expire,
 * like the unsubscribe link next to it: a professional changes what they receive from any old alert.
 */
const signatureOf = (secret: string, id: number, recipient: string) =>
  createHmac('sha256', secret).update(`alert-preferences:${id}:${recipient}`).digest('base64url');

export const preferencesToken = (secret: string, row: { id: number; recipient: string }) => `${row.id}.${signatureOf(secret, row.id, row.recipient)}`;

/** What the preferences page shows: the address's choices, with every species to choose from. */
export interface PreferencesView {
  email: string;
  unsubscribed: boolean;
  species: { id: number; name: string; chosen: boolean }[];
  radiusMiles: number;
  dailyCap: number | null;
  pausedUntil: string | null;
  /** Today where the address's site is: a pause ends after it. */
  today: string;
}

/** The form's values as typed, shown again beside its messages. */
export type PreferencesFormValues = Record<string, string | string[] | undefined>;

export type SavedPreferences =
  | { saved: true; view: PreferencesView }
  | { saved: false; view: PreferencesView; errors: Partial<Record<keyof AlertPreferencesValues, string>>; typed: PreferencesFormValues };

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A professional's own choices of the alerts their address receives, through the signed link. */
export function createAlertPreferences({ db, secret }: { db: Database; secret: string }) {
  /** The address a link is for, and the state of the site it came through; null for a link the portal did not sign. */
  async function linkedAddress(token: string): Promise<{ alertEmailId: number; email: string; state: string | null } | null> {
    const [idText, signature, ...rest] = token.split('.');
    const id = Number(idText);
    if (rest.length || !/^\d{1,9}$/.test(idText ?? '') || !signature) return null;
    const [row] = await db
      .select({ recipient: alertEmails.recipient, state: sites.state })
      .from(alertEmails)
      .leftJoin(sites, eq(sites.id, alertEmails.siteId))
      .where(eq(alertEmails.id, id));
    if (!row) return null;
    const expected = Buffer.from(signatureOf(secret, id, row.recipient));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { alertEmailId: id, email: row.recipient, state: row.state };
  }

  async function viewOf(email: string, state: string | null, now: Date): Promise<PreferencesView> {
    const [[stored], [unsubscribed], all] = await Promise.all([
      db.select().from(alertPreferences).where(eq(alertPreferences.email, email)),
      db.select({ email: emailUnsubscribes.email }).from(emailUnsubscribes).where(eq(emailUnsubscribes.email, email)),
      db.select({ id: species.id, name: species.name }).from(species).orderBy(asc(species.name)),
    ]);
    const chosen = stored?.speciesIds ?? null;
    return {
      email,
      unsubscribed: Boolean(unsubscribed),
      species: all.map((s) => ({ ...s, chosen: chosen === null || chosen.includes(s.id) })),
      radiusMiles: stored?.radiusMiles ?? alertPreferenceLimits.radiusMilesMax,
      dailyCap: stored?.dailyCap ?? null,
      pausedUntil: stored?.pausedUntil ?? null,
      today: localDate(now, state),
    };
  }

  /** The form's messages by field: the schema's, then the pause's dates against today where the site is. */
  function problemsOf(form: PreferencesFormValues, view: PreferencesView) {
    const parsed = alertPreferencesForm.safeParse(form);
    const errors: Partial<Record<keyof AlertPreferencesValues, string>> = {};
    for (const issue of parsed.error?.issues ?? []) {
      const field = (issue.path[0] ?? 'receive') as keyof AlertPreferencesValues;
      errors[field] ??= issue.message;
    }
    if (!parsed.success) return { errors };
    const values = parsed.data;
    if (values.species.some((id) => !view.species.some((s) => s.id === id))) errors.species = messages.invalidRequest;
    if (values.pausedUntil !== null && values.pausedUntil <= view.today) errors.pausedUntil = messages.alertPreferencesPausePast;
    else if (values.pausedUntil !== null && values.pausedUntil > addDays(view.today, alertPreferenceLimits.pauseDaysMax)) errors.pausedUntil = messages.alertPreferencesPauseTooFar;
    return { errors, values };
  }

  return {
    /** The page of a link; null when the portal did not sign it. */
    async preferencesOf(token: string, now: Date): Promise<PreferencesView | null> {
      const address = await linkedAddress(token);
      return address && viewOf(address.email, address.state, now);
    },

    /**
     * Saves the form of a link: "no" unsubscribes the address (whatever else the form says), "yes"
     * takes the choices (every species chosen is kept as every species, so one added later is
     * included) and ends an unsubscribe. Null when the portal did not sign the link.
     */
    async savePreferences(token: string, form: PreferencesFormValues, now: Date): Promise<SavedPreferences | null> {
      const address = await linkedAddress(token);
      if (!address) return null;
      const { email, state, alertEmailId } = address;
      const view = await viewOf(email, state, now);
      if (form.receive === 'no') {
        await db.insert(emailUnsubscribes).values({ email, alertEmailId }).onConflictDoNothing();
        return { saved: true, view: { ...view, unsubscribed: true } };
      }
      const { errors, values } = problemsOf(form, view);
      if (!values || Object.keys(errors).length) return { saved: false, view, errors, typed: form };
      const choices = {
        speciesIds: values.species.length === view.species.length ? null : values.species,
        radiusMiles: values.radiusMiles!,
        dailyCap: values.dailyCap,
        pausedUntil: values.pausedUntil,
        updatedAt: now,
      };
      await db.transaction(async (tx) => {
        await tx.insert(alertPreferences).values({ email, ...choices }).onConflictDoUpdate({ target: alertPreferences.email, set: choices });
        await tx.delete(emailUnsubscribes).where(eq(emailUnsubscribes.email, email));
      });
      return { saved: true, view: await viewOf(email, state, now) };
    },
  };
}
