import { API_BASE, messages, normalisePhone, placePhotoQuery, siteIdOfPlaceId, vetPhoto, vetSearch, type SiteSearchResult, type ZipPlace } from '@petreg/contract';
import { z } from 'zod';
import { AppError, badRequest, loggable } from '../../errors.js';
import { milesBetween } from '../../geography.js';
import type { PlaceFound, Places, PlacesLog } from './index.js';

/** How long a Google call may take before vet search gives up on it. */
const TIMEOUT_MS = 10_000;
/** A photo at 400×300 is tens of kilobytes; anything far larger is not what was asked for. */
const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

/** The fields a result card and the results' map show (Text Search bills by the fields asked for). */
const searchFields = ['id', 'displayName', 'formattedAddress', 'addressComponents', 'nationalPhoneNumber', 'rating', 'userRatingCount', 'websiteUri', 'photos', 'location'];
/** The fields a vet's profile page shows. */
const detailFields = [...searchFields, 'types', 'regularOpeningHours', 'reviews'];
/** Google's largest circle to bias a search to (50 km); places beyond vet search's radius are then left out. */
const MAX_BIAS_METERS = 50_000;

/** Google's Place (Places API New), as far as the portal reads it; a field of another shape is dropped, not fatal. */
const text = z.string().optional().catch(undefined);
const number = z.number().optional().catch(undefined);
const googlePlace = z.object({
  id: text,
  displayName: z.object({ text }).optional().catch(undefined),
  formattedAddress: text,
  addressComponents: z
    .array(z.object({ longText: text, shortText: text, types: z.array(z.string()).catch([]) }))
    .optional()
    .catch(undefined),
  nationalPhoneNumber: text,
  rating: number,
  userRatingCount: number,
  websiteUri: text,
  location: z.object({ latitude: number, longitude: number }).optional().catch(undefined),
  types: z.array(z.string()).optional().catch(undefined),
  regularOpeningHours: z.object({ weekdayDescriptions: z.array(z.string()).optional().catch(undefined) }).optional().catch(undefined),
  reviews: z
    .array(
      z.object({
        rating: number,
        text: z.object({ text }).optional().catch(undefined),
        relativePublishTimeDescription: text,
        authorAttribution: z.object({ displayName: text }).optional().catch(undefined),
      }),
    )
    .optional()
    .catch(undefined),
  photos: z
    .array(z.object({ name: text }))
    .optional()
    .catch(undefined),
});
type GooglePlace = z.infer<typeof googlePlace>;
const searchAnswer = z.object({ places: z.array(googlePlace).optional(), nextPageToken: z.string().optional().catch(undefined) });
const photoAnswer = z.object({ photoUri: z.url() });
/** Google's error answer (google.rpc.Status). */
const googleFailure = z.object({
  error: z.object({ status: text, message: text, details: z.array(z.object({ reason: text })).optional().catch(undefined) }),
});

/** Where the browser gets a place's photo: through the portal, which holds the key. */
export const placePhotoUrl = (photoName: string) => `${API_BASE}/site/photo?ref=${encodeURIComponent(photoName)}`;

const roundRating = (rating: number | undefined) => (rating === undefined ? null : Math.round(rating * 10) / 10);

function addressParts(place: GooglePlace) {
  const components = place.addressComponents ?? [];
  const part = (type: string, form: 'longText' | 'shortText' = 'longText') => components.find((c) => c.types.includes(type))?.[form] ?? null;
  const street = [part('street_number'), part('route', 'shortText')].filter(Boolean).join(' ');
  return {
    // Without street components (a place known by name only), the address's first line stands in.
    address1: street || place.formattedAddress?.split(',')[0]?.trim() || null,
    city: part('locality') ?? part('postal_town') ?? part('sublocality_level_1') ?? part('administrative_area_level_3'),
    state: part('administrative_area_level_1', 'shortText'),
    zip: part('postal_code'),
  };
}

function searchResult(place: GooglePlace & { id: string; name: string }): SiteSearchResult {
  const { address1, city, state, zip } = addressParts(place);
  const photo = place.photos?.find((p) => p.name)?.name;
  return {
    googlePlaceId: place.id,
    name: place.name,
    address1,
    city,
    state,
    zip,
    // Stored as every phone number of the portal is (+1 and 10 digits), shown formatted.
    phoneNumber: place.nationalPhoneNumber ? (normalisePhone(place.nationalPhoneNumber) ?? place.nationalPhoneNumber) : null,
    rating: roundRating(place.rating),
    reviewsCount: place.userRatingCount ?? null,
    url: place.websiteUri ?? null,
    imageUrl: photo ? placePhotoUrl(photo) : null,
    latitude: place.location?.latitude ?? null,
    longitude: place.location?.longitude ?? null,
  };
}

/** A ZIP code search: the place's distance from the ZIP's centre, or null beyond vet search's radius (or unplaced). */
function withDistance(result: SiteSearchResult, near: ZipPlace): SiteSearchResult | null {
  if (result.latitude === null || result.longitude === null) return null;
  const miles = milesBetween(near, { latitude: result.latitude, longitude: result.longitude });
  return miles <= vetSearch.radiusMiles ? { ...result, distanceMiles: Math.round(miles * 10) / 10 } : null;
}

/** A place with the id and name every result needs; others are left out. */
function named(place: GooglePlace) {
  const name = place.displayName?.text?.trim();
  return place.id && name ? { ...place, id: place.id, name } : null;
}

function placeFound(place: GooglePlace & { id: string; name: string }): PlaceFound {
  const result = searchResult(place);
  return {
    googlePlaceId: result.googlePlaceId,
    name: result.name,
    address1: result.address1,
    city: result.city,
    state: result.state,
    zipCode: result.zip,
    phoneNumber: result.phoneNumber,
    url: result.url,
    imageUrl: result.imageUrl,
    rating: result.rating,
    reviewsCount: result.reviewsCount,
    latitude: place.location?.latitude ?? null,
    longitude: place.location?.longitude ?? null,
    placeDetail: {
      address: place.formattedAddress ?? null,
      latitude: place.location?.latitude ?? null,
      longitude: place.location?.longitude ?? null,
      phone: result.phoneNumber,
      rating: result.rating,
      website: result.url,
      weekdayText: place.regularOpeningHours?.weekdayDescriptions ?? [],
      types: place.types ?? [],
      reviews: (place.reviews ?? []).map((review) => ({
        author: review.authorAttribution?.displayName ?? '',
        rating: review.rating ?? null,
        text: review.text?.text ?? '',
        relativeTime: review.relativePublishTimeDescription ?? null,
      })),
    },
  };
}

/**
 * Google Places API (New): Text Search restricted to veterinary care, Place Details, and place
 * photos fetched by the server, so the key never reaches a browser. Directory place ids
 * (`site-12`) are the directory's to answer. A Google failure reaches the user as "vet search is
 * not available" (502) and the log, never as a 500.
 */
export function createGooglePlaces(google: { apiKey: string; url: string }, deps: { directory: Places; log: PlacesLog }): Places {
  const unavailable = (details: object) => {
    deps.log.error(details, 'Google Places call failed');
    return new AppError(502, [messages.vetSearchUnavailable]);
  };

  /** Calls Google; null when Google says there is no such thing (404, or 400 for a name that cannot exist). */
  async function call(path: string, init: { method?: string; fieldMask?: string; body?: unknown }): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${google.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'X-Goog-Api-Key': google.apiKey,
          ...(init.fieldMask ? { 'X-Goog-FieldMask': init.fieldMask } : {}),
          ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw unavailable({ path, err: loggable(error) });
    }
    const answer: unknown = await response.json().catch(() => null);
    if (response.ok) return answer;
    const googleError = googleFailure.safeParse(answer).data?.error;
    // An invalid key is a 400 too; it is the portal's problem, not the place's.
    const keyRefused = googleError?.details?.some((detail) => detail.reason?.startsWith('API_KEY')) ?? false;
    if (response.status === 404 || (response.status === 400 && !keyRefused)) return null;
    throw unavailable({ path, status: response.status, googleStatus: googleError?.status, googleMessage: googleError?.message });
  }

  return {
    name: 'google',

    async search({ query, near, next }) {
      // A ZIP code: nearest first, around its centre.
      const around = near && {
        locationBias: { circle: { center: { latitude: near.latitude, longitude: near.longitude }, radius: MAX_BIAS_METERS } },
        rankPreference: 'DISTANCE',
      };
      const asked = await call('/v1/places:searchText', {
        method: 'POST',
        fieldMask: [...searchFields.map((field) => `places.${field}`), 'nextPageToken'].join(','),
        body: { textQuery: query, includedType: 'veterinary_care', strictTypeFiltering: true, pageSize: vetSearch.maxResults, pageToken: next, ...around },
      });
      // Google refuses a page token it did not give (or one expired) as it refuses a bad query.
      if (asked === null && next !== undefined) throw badRequest(messages.invalidRequest);
      const answer = searchAnswer.safeParse(asked);
      if (!answer.success) throw unavailable({ path: '/v1/places:searchText', problem: 'unexpected answer' });
      const results = (answer.data.places ?? [])
        .map(named)
        .filter((place) => place !== null)
        .slice(0, vetSearch.maxResults)
        .map(searchResult);
      return {
        results: near ? results.map((result) => withDistance(result, near)).filter((result) => result !== null) : results,
        next: answer.data.nextPageToken || null,
      };
    },

    async details(placeId) {
      if (siteIdOfPlaceId(placeId) !== null) return deps.directory.details(placeId);
      const answer = await call(`/v1/places/${encodeURIComponent(placeId)}`, { fieldMask: detailFields.join(',') });
      if (answer === null) return null;
      const read = googlePlace.safeParse(answer);
      if (!read.success) throw unavailable({ path: '/v1/places/{id}', problem: 'unexpected answer' });
      const place = named(read.data);
      return place ? placeFound(place) : null;
    },

    async photo(ref) {
      // Only ever a photo's name: anything else would make the key ask Google for something else.
      if (!placePhotoQuery.shape.ref.safeParse(ref).success) return null;
      const media = new URLSearchParams({ maxWidthPx: String(vetPhoto.maxWidth), maxHeightPx: String(vetPhoto.maxHeight), skipHttpRedirect: 'true' });
      const answer = await call(`/v1/${ref}/media?${media}`, {});
      if (answer === null) return null;
      const located = photoAnswer.safeParse(answer);
      if (!located.success) throw unavailable({ path: '/v1/{photo}/media', problem: 'unexpected answer' });
      // The image itself lies at an address Google hands out for the purpose; it takes no key.
      try {
        const image = await fetch(located.data.photoUri, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        const contentType = image.headers.get('content-type') ?? '';
        const body = Buffer.from(await image.arrayBuffer());
        if (!image.ok || !contentType.startsWith('image/') || body.length > MAX_PHOTO_BYTES) {
          throw new Error(`photo answered ${image.status} ${contentType}, ${body.length} bytes`);
        }
        return { body, contentType };
      } catch (error) {
        throw unavailable({ path: 'photoUri', err: loggable(error) });
      }
    },
  };
}
