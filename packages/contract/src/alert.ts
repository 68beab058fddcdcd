/**
 * Lost pet alerts (spec 2.5, 3 Pet alert and Email stats, 4 Lost alert, 5 Lost alert form, 7): the
 * form, the request schemas the routes share, and the shapes the calls answer.
 */
import { z } from 'zod';
import { idField, idParam, requestObject, textField, whenFieldsParsed } from './fields.js';
import { messages } from './messages.js';
import { incidentDescriptionField, missingDateField, petProfileFields, withChipRules } from './pet.js';
import { optionalZipCodeField } from './place.js';

/**
 * An alert's life: NEW while it waits for payment, paid once it is sent (the pet then shows in the
 * analytics), found when the owner marks the pet found, ended when its owner closed the account.
 */
export const alertStatuses = ['NEW', 'paid', 'found', 'ended'] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/** The stored pet must meet the form's rules before an alert about it goes out. */
const requiredPetFields = {
  image: petProfileFields.image.refine(Boolean, { error: messages.imageRequired }),
  breeds: petProfileFields.breeds.refine((list) => list.length > 0, { error: messages.breedsRequired }),
  sex: petProfileFields.sex.refine((sex) => sex > 0, { error: messages.petSexRequired }),
  dob: petProfileFields.dob.refine((dob) => dob !== null, { error: messages.dobRequired }),
};

/**
 * The lost alert form (client/add-alert/{id}), every rule of spec 5. Sending it takes two calls: PUT
 * Pet/pet-profile with the pet's fields, missingDate, incidentDescription and the last-seen ZIP
 * (`lastSeenZip`), then POST petalert/send-mail-from-pet-alert.
 */
export const lostAlertFormSchema = withChipRules(
  requestObject({
    ...petProfileFields,
    ...requiredPetFields,
    missingDate: missingDateField,
    /** The switch "home ZIP is where last seen": the owner's own ZIP code is sent as the last-seen ZIP. */
    homeZipIsLastSeen: z.boolean({ error: messages.invalidChoice }).default(false),
    zipCode: optionalZipCodeField,
    incidentDescription: incidentDescriptionField,
  }),
).superRefine(
  (form, ctx) => {
    if (!form.homeZipIsLastSeen && !form.zipCode) ctx.addIssue({ code: 'custom', path: ['zipCode'], message: messages.zipcodeRequired });
  },
  { when: whenFieldsParsed(['homeZipIsLastSeen', 'zipCode']) },
);
export type LostAlertFormInput = z.input<typeof lostAlertFormSchema>;
export type LostAlertForm = z.output<typeof lostAlertFormSchema>;

/** The ZIP code the form reports the pet last seen in: the owner's home ZIP when the switch says so. */
export function lastSeenZip(form: Pick<LostAlertForm, 'homeZipIsLastSeen' | 'zipCode'>, homeZip: string | null): string | null {
  if (!form.homeZipIsLastSeen) return form.zipCode ?? null;
  // A profile's ZIP may carry the +4 part; the ZIP table knows five digits.
  return /^\d{5}(-\d{4})?$/.test(homeZip?.trim() ?? '') ? homeZip!.trim().slice(0, 5) : null;
}

/**
 * POST petalert/send-mail-from-pet-alert (spec 7). `zipCode` null or absent: the owner's home ZIP.
 * `name` is the pet's name as the form showed it; the stored pet's is what the alert uses.
 */
export const sendPetAlertSchema = requestObject({
  name: textField(100, messages.petNameTooLong).nullish(),
  petId: idField(messages.invalidId),
  missingDate: missingDateField,
  zipCode: optionalZipCodeField,
  incidentDescription: incidentDescriptionField,
  status: z.literal('NEW', { error: messages.invalidRequest }).default('NEW'),
});
export type SendPetAlertInput = z.input<typeof sendPetAlertSchema>;
export type SendPetAlert = z.output<typeof sendPetAlertSchema>;

/** POST checkout/checkout-lpa: pay for the pet's alert that waits for payment. */
export const alertCheckoutSchema = requestObject({ petId: idField(messages.invalidId) });

/** A per-recipient token of an alert e-mail in the path: unsubscribe (GET shows a page, POST unsubscribes). */
export const alertEmailTokenParams = requestObject({ token: z.uuid({ error: messages.notFound }) });

/** The signed preferences link of an alert e-mail (its row's id and signature): GET shows the page, POST saves its form. */
export const alertPreferencesTokenParams = requestObject({ token: textField(100, messages.notFound) });

/** The open pixel of an alert e-mail: GET email/open/{token}.gif. */
export const openPixelParams = requestObject({
  file: textField(60, messages.notFound).refine((file) => /\.gif$/i.test(file) && z.uuid().safeParse(file.slice(0, -'.gif'.length)).success, {
    error: messages.notFound,
  }),
});

/** GET petalert/alerts/bypet/{petId}, PUT pet/mark-as-found/{petId}, GET email/{alertId}/getEmailStats. */
export const alertIdParams = requestObject({ id: idParam() });

/** Where the browser goes next: the alert checkout, or the confirmation page when nothing is due. */
/** GET petalert/alert-price: what a lost pet alert costs, and the signed-in owner's pets whose protection sends theirs free. */
export interface AlertPrices {
  priceCents: number;
  currency: string;
  freePetIds: number[];
}

export interface AlertLocation {
  location: string;
}

/** The pet alert of spec 3: GET petalert/alerts/bypet/{petId}. */
export interface PetAlert {
  id: number;
  petId: number;
  /** The pet's name (spec 3, Pet alert). */
  name: string;
  status: AlertStatus;
  missingDate: string;
  zipCode: string;
  /** The last-seen ZIP as a place: "Saint Louis, MO 63101". */
  place: string;
  incidentDescription: string;
  /** When the alert went out (it became paid); null while it waits for payment. */
  sentAt: string | null;
  foundDate: string | null;
  /** How many professionals the alert was addressed to. */
  recipientsCount: number;
}

/**
 * Email stats of spec 3 (GET email/{alertId}/getEmailStats), over the 30 days after sending:
 * recipients addressed (counted), accepted by their mail server (delivered), who loaded the open
 * pixel (opened), refused (bounced), and opens by a mail client's privacy prefetch, kept apart.
 */
export interface EmailStats {
  counted: number;
  delivered: number;
  opened: number;
  bounced: number;
  automaticOpens: number;
}

/** What a professional may ask of the alerts an address receives (the preferences link of an alert e-mail). */
export const alertPreferenceLimits = { radiusMilesMax: 50, dailyCapMax: 100, pauseDaysMax: 365 } as const;

/** A form's whole number in a range; blank is `blank` (null: no value), anything else the field's message. */
const formWholeNumber = (min: number, max: number, message: string, blank: number | null) =>
  z
    .preprocess((value) => value ?? '', textField(10, message, message).trim())
    .transform((text, context) => {
      if (text === '') return blank;
      const value = /^\d+$/.test(text) ? Number(text) : NaN;
      if (value >= min && value <= max) return value;
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

/** A species box of the form: the species' id. */
const speciesBox = textField(9, messages.invalidRequest, messages.invalidRequest).regex(/^\d{1,9}$/, { error: messages.invalidRequest });

/**
 * POST email/preferences/{token}, the preferences page's form (form-encoded, every value text):
 * whether to receive alerts at all, the species (none chosen only with "no"), the radius, the daily
 * cap (blank: none) and the date to pause until (blank: not paused; after today is the service's check,
 * as today is the site's day).
 */
export const alertPreferencesForm = requestObject({
  receive: z.enum(['yes', 'no'], { error: messages.invalidRequest }),
  species: z
    .preprocess((value) => (value === undefined ? [] : [value].flat()), z.array(speciesBox, { error: messages.invalidRequest }).max(50, { error: messages.invalidRequest }))
    .transform((ids) => [...new Set(ids.map(Number))]),
  radiusMiles: formWholeNumber(1, alertPreferenceLimits.radiusMilesMax, messages.alertPreferencesRadiusInvalid, null).refine((miles) => miles !== null, {
    error: messages.alertPreferencesRadiusInvalid,
  }),
  dailyCap: formWholeNumber(1, alertPreferenceLimits.dailyCapMax, messages.alertPreferencesCapInvalid, null),
  pausedUntil: z
    .preprocess((value) => value ?? '', textField(10, messages.alertPreferencesPauseInvalid, messages.alertPreferencesPauseInvalid).trim())
    .transform((text) => text || null)
    .refine((text) => text === null || (/^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)), {
      error: messages.alertPreferencesPauseInvalid,
    }),
}).refine((form) => form.receive === 'no' || form.species.length > 0, {
  error: messages.alertPreferencesSpeciesRequired,
  path: ['species'],
  when: whenFieldsParsed(['receive', 'species']),
});
export type AlertPreferencesInput = z.input<typeof alertPreferencesForm>;
export type AlertPreferencesValues = z.output<typeof alertPreferencesForm>;
