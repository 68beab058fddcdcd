/**
 * Vets and the directory of pet-care professionals (spec 2.5 vet search, 3 Site, 7 Sites): the
 * request schemas the forms and routes share, and the shapes the calls answer.
 */
import { z } from 'zod';
import { idField, idParam, requestObject, textField } from './fields.js';
import { messages } from './messages.js';
import { isValidPhone } from './phone.js';
import type { ZipPlace } from './place.js';

/** Kinds of place in the directory; vet search shows the veterinary ones, alerts reach them all. */
export const siteKinds = ['Veterinary Care', 'Emergency Vet', 'Animal Shelter', 'Rescue', 'Animal Control', 'Groomer/Boarding'] as const;
export type SiteKind = (typeof siteKinds)[number];

/**
 * Where a directory entry came from: a maps search result an owner added (places), an owner's own
 * entry (owner), an administrator (admin), a CSV import (import), or the sample directory of an
 * embedded start (sample).
 */
export const siteSources = ['places', 'owner', 'admin', 'import', 'sample'] as const;
export type SiteSource = (typeof siteSources)[number];

/** Spec 9: vet photos at most 400 wide and 300 high; ratings to 0.1. */
export const vetPhoto = { maxWidth: 400, maxHeight: 300 } as const;

/** How far vet search by ZIP looks, and how many results it shows at a time (Show more asks for the next ones). */
export const vetSearch = { radiusMiles: 50, maxResults: 20 } as const;

/** Administrators page through the directory this many sites at a time. */
export const adminSitesPageSize = 25;

/** A pet links this many vets at most: its own vets, not a mailing list. */
export const maxVetsPerPet = 5;

/**
 * Directory entries appear in search results under a place id of their own, so one call
 * (POST site/ByGoogleId/{placeId}) adds a maps result and a directory entry alike.
 */
const directoryPlacePrefix = 'site-';
export const directoryPlaceId = (siteId: number) => `${directoryPlacePrefix}${siteId}`;
/** The site id inside a directory place id; null for a maps service's place id. */
export function siteIdOfPlaceId(placeId: string): number | null {
  if (!placeId.startsWith(directoryPlacePrefix)) return null;
  const id = Number(placeId.slice(directoryPlacePrefix.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A query vet search reads as a ZIP code: the searched ZIP's centre is where the nearest vets are. */
export const isZipQuery = (query: string) => /^\d{5}$/.test(query);

/**
 * GET site/search?query=&next=: a practice name, an address or a 5-digit ZIP code; for the following
 * results, the `next` of the previous answer (opaque: the directory's position, or the maps service's
 * page token). The search box's form sends the query alone.
 */
export const siteSearchQuery = requestObject({
  query: textField(200, messages.vetSearchTooLong, messages.vetSearchRequired)
    .trim()
    .min(1, { error: messages.vetSearchRequired }),
  next: textField(1000, messages.invalidRequest, messages.invalidRequest).min(1, { error: messages.invalidRequest }).optional(),
});

/** One result card of vet search. */
export interface SiteSearchResult {
  /** The maps service's place id, or the directory's own (`site-12`). */
  googlePlaceId: string;
  name: string;
  address1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  phoneNumber: string | null;
  /** 0 to 5, to 0.1. */
  rating: number | null;
  reviewsCount: number | null;
  url: string | null;
  /** A photo at most 400×300, served by the portal (the maps key never reaches the browser). */
  imageUrl: string | null;
  /** Where the map shows it; null when the source gives no coordinates. */
  latitude: number | null;
  longitude: number | null;
  /** Distance from the searched ZIP's centre; present only when searched by ZIP. */
  distanceMiles?: number;
}

/** GET site/search: one page of results. */
export interface SiteSearchPage {
  results: SiteSearchResult[];
  /** Asks for the following results (sent back as `next`); null when there are no more. */
  next: string | null;
  /** Set when the query was a ZIP code: the place searched around, its centre and how far vet search looked. */
  near: (ZipPlace & { radiusMiles: number }) | null;
}

/**
 * GET site/photo?ref=: a maps service's photo name (`places/{placeId}/photos/{photoId}`), which the
 * portal fetches at most 400×300 with its own key; nothing else can be asked for through it.
 */
export const placePhotoQuery = requestObject({
  ref: textField(1000, messages.invalidRequest, messages.invalidRequest).regex(/^places\/[\w-]+\/photos\/[\w-]+$/, { error: messages.invalidRequest }),
});

const tileNumber = (max: number) =>
  z.coerce.number({ error: messages.invalidRequest }).int({ error: messages.invalidRequest }).min(0, { error: messages.invalidRequest }).max(max, { error: messages.invalidRequest });
/** The deepest zoom a road map has tiles for. */
const MAX_TILE_ZOOM = 22;

/** GET site/map-tile/{z}/{x}/{y}: a map tile (Google's, through the portal): x and y within the zoom's grid. */
export const mapTileParams = requestObject({ z: tileNumber(MAX_TILE_ZOOM), x: tileNumber(2 ** MAX_TILE_ZOOM - 1), y: tileNumber(2 ** MAX_TILE_ZOOM - 1) }).refine(
  (tile) => tile.x < 2 ** tile.z && tile.y < 2 ** tile.z,
  { error: messages.invalidRequest },
);

/** A place id in the path: POST site/ByGoogleId/{placeId}. */
export const placeIdParams = requestObject({
  placeId: textField(300, messages.siteCreateFailed).min(1, { error: messages.siteCreateFailed }),
});

const optionalText = (max: number, tooLong: string) =>
  textField(max, tooLong)
    .trim()
    .nullish()
    .transform((v) => v || null);

/** A scheme of its own ("ftp:", "javascript:"), told apart from a host and its port ("www.vet.com:8080"). */
const schemePattern = /^[a-z][a-z\d+.-]*:(?!\d)/i;

/**
 * A website as people type it: "www.vet.com" becomes "https://www.vet.com"; an address that names
 * http or https keeps it. Null for anything else: another scheme, spaces, or a host without a dot.
 */
export function completeWebAddress(text: string): string | null {
  const address = schemePattern.test(text) ? text : `https://${text.replace(/^\/\//, '')}`;
  if (/\s/.test(address) || !/^https?:\/\//i.test(address)) return null;
  try {
    const { hostname } = new URL(address);
    return /^[^.]+(\.[^.]+)+$/.test(hostname) ? address : null;
  } catch {
    return null;
  }
}

/** A web address field: the admin's and the owner's forms and a sites CSV file, completed as above. */
const webAddress = textField(500, messages.siteUrlInvalid)
  .trim()
  .nullish()
  .transform((v) => v || null)
  .refine((v) => v === null || completeWebAddress(v) !== null, { error: messages.siteUrlInvalid })
  .transform((v) => v && completeWebAddress(v));

const phoneNumber = textField(19, messages.phoneTooLong)
  .trim()
  .nullish()
  .transform((v) => v || null)
  .refine((v) => v === null || isValidPhone(v), { error: messages.phoneInvalid });

const siteName = textField(200, messages.siteNameTooLong, messages.siteNameRequired)
  .trim()
  .min(1, { error: messages.siteNameRequired });

/**
 * The site payload of spec 7 (POST site/create, POST site/ByGoogleId/{id}). An owner's own entry
 * (a vet the maps service does not know); for a place id the server reads the place itself and
 * trusts none of the payload's details.
 */
export const siteCreateSchema = requestObject({
  name: siteName,
  googlePlaceId: optionalText(300, messages.siteCreateFailed),
  isActive: z.boolean({ error: messages.invalidRequest }).optional(),
  phoneNumber,
  address1: optionalText(255, messages.addressTooLong),
  url: webAddress,
  imageUrl: webAddress,
  placeDetail: z.unknown().optional(),
});
export type SiteCreateInput = z.input<typeof siteCreateSchema>;

/** POST site/ByGoogleId/{placeId}: the payload is optional; the place's own details win. */
export const siteByPlaceSchema = siteCreateSchema.partial().nullish();

/** POST site/add-site-to-pets. */
export const addSiteToPetsSchema = requestObject({
  siteId: idField(messages.invalidId),
  petIds: z
    .array(idField(messages.invalidId), { error: messages.choosePet })
    .min(1, { error: messages.choosePet })
    .max(100, { error: messages.choosePet }),
});
export type AddSiteToPetsInput = z.input<typeof addSiteToPetsSchema>;

/** DELETE site/RemoveFromPet. */
export const removeSiteFromPetSchema = requestObject({
  petId: idField(messages.invalidId),
  siteId: idField(messages.invalidId),
});

/** GET site/sites-for-pet/{petId}, GET site/sites-for-user-pets/{siteId}: a record id in the path. */
export const siteIdParams = requestObject({ id: idParam() });

/** A vet as owners see it: dashboard tiles, the pet page's vet card, the vet pages. */
export interface Site {
  id: number;
  name: string;
  practiceType: SiteKind;
  logo: string | null;
  googlePlaceId: string | null;
  isActive: boolean;
  phoneNumber: string | null;
  address1: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  url: string | null;
  imageUrl: string | null;
  rating: number | null;
  reviewsCount: number | null;
}

export interface PlaceReview {
  author: string;
  rating: number | null;
  text: string;
  /** "2 months ago", as the maps service words it; null for the directory. */
  relativeTime: string | null;
}

/** Spec 3 placeDetail: what the vet profile page shows beyond the site itself. */
export interface PlaceDetail {
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  phone: string | null;
  rating: number | null;
  website: string | null;
  /** One line a weekday, Monday first: "Monday: 8:00 AM – 6:00 PM". Empty when unknown. */
  weekdayText: string[];
  types: string[];
  reviews: PlaceReview[];
}

/** GET site/{id}. */
export interface SiteWithDetail extends Site {
  placeDetail: PlaceDetail;
}

/** A vet linked to a pet: POST site/add-site-to-pets, GET site/sites-for-user-pets/{siteId}. */
export interface SitePetLink {
  id: number;
  siteId: number;
  petId: number;
}

/** The administrators' directory form: POST admin/sites, PUT admin/sites/{id}; also one row of a sites CSV. */
export const adminSiteSchema = requestObject({
  name: siteName,
  kind: z.enum(siteKinds, { error: messages.siteKindInvalid }),
  email: textField(255, messages.emailTooLong)
    .trim()
    .toLowerCase()
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || z.email().safeParse(v).success, { error: messages.emailInvalid }),
  phoneNumber,
  address1: optionalText(255, messages.addressTooLong),
  city: optionalText(100, messages.cityTooLong),
  state: textField(2, messages.stateInvalid)
    .trim()
    .toUpperCase()
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || /^[A-Z]{2}$/.test(v), { error: messages.stateInvalid }),
  zipCode: textField(5, messages.zipInvalid, messages.zipInvalid).trim().regex(/^\d{5}$/, { error: messages.zipInvalid }),
  url: webAddress,
  receivesAlerts: z.boolean({ error: messages.invalidRequest }),
  isActive: z.boolean({ error: messages.invalidRequest }).optional(),
}).refine((site) => !site.receivesAlerts || site.email !== null, { error: messages.siteAlertsNeedEmail, path: ['email'] });
export type AdminSiteInput = z.input<typeof adminSiteSchema>;

/**
 * Which sites the administrators' list shows: all, active or inactive ones, the samples, or those
 * whose e-mail address unsubscribed from alerts.
 */
export const adminSiteFilters = ['all', 'active', 'inactive', 'sample', 'unsubscribed'] as const;
export type AdminSiteFilter = (typeof adminSiteFilters)[number];

/** GET admin/sites?query=&filter=&page=. */
export const adminSitesQuery = requestObject({
  query: textField(200, messages.vetSearchTooLong).trim().optional(),
  filter: z.enum(adminSiteFilters, { error: messages.invalidRequest }).default('all'),
  page: z.coerce.number({ error: messages.invalidRequest }).int({ error: messages.invalidRequest }).min(1, { error: messages.invalidRequest }).max(100_000, { error: messages.invalidRequest }).default(1),
});

/** A row of the administrators' directory. */
/** An address's choices of the alerts it receives, as the administrators' Sites screen shows them. */
export interface SiteAlertPreferences {
  /** The species it wants, by name; null for every species. */
  species: string[] | null;
  radiusMiles: number;
  dailyCap: number | null;
  /** "2026-12-01": no alerts before that day; null when not paused. */
  pausedUntil: string | null;
}

export interface AdminSite extends Site {
  kind: SiteKind;
  email: string | null;
  receivesAlerts: boolean;
  /** Its e-mail address unsubscribed from alerts: none reach it, whatever receivesAlerts says. */
  unsubscribed: boolean;
  /** What its e-mail address chose to receive through an alert's preferences link; null while it chose nothing. */
  alertPreferences: SiteAlertPreferences | null;
  /** Alert e-mails to its address the mail server refused for good. */
  bounces: number;
  /** When the last alert e-mail to its address was delivered (ISO); null for none. */
  lastAlertAt: string | null;
  source: SiteSource;
  latitude: number | null;
  longitude: number | null;
  updatedAt: string;
}

export interface AdminSitesPage {
  items: AdminSite[];
  total: number;
  /** Sample sites still switched on, whatever the page shows: Remove all samples is offered while there are some. */
  activeSamples: number;
}

/** The CSV columns of a sites import, in the template's order. */
export const siteCsvColumns = ['name', 'kind', 'email', 'phoneNumber', 'address1', 'city', 'state', 'zipCode', 'url', 'receivesAlerts'] as const;

/** One sites file: at most this large and this many rows, so an import never holds the database for long. */
export const siteImportLimits = { maxFileBytes: 5 * 1024 * 1024, maxRows: 5000 } as const;

/** What became of one row of a sites import, written in the result file's status column. */
export const siteImportStatuses = ['created', 'updated', 'skipped', 'error'] as const;
export type SiteImportStatus = (typeof siteImportStatuses)[number];

/** POST admin/sites/import: the per-row result file, and how many rows ended each way. */
export interface SiteImportResult extends DownloadFile {
  counts: Record<SiteImportStatus, number>;
}

/** POST admin/sites/remove-samples: how many sample sites were switched off. */
export interface RemovedSamples {
  removed: number;
}

/** A file answered for download: the import's per-row result (spec 7 shape). */
export interface DownloadFile {
  /** Base64. */
  fileContents: string;
  contentType: string;
  fileDownloadName: string;
}
