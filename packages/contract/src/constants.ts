/** Business constants and UI timings of spec section 9. */
export const API_BASE = '/api/v2';

export const storageKeys = {
  accessToken: 'jwt_access_token',
  redirectUrl: 'fuseRedirectUrl',
} as const;

export const roles = ['customer', 'paidcustomer', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Role groups of spec section 6. */
export const roleGroups = {
  admin: ['admin'],
  user: ['customer', 'paidcustomer'],
  onlyGuest: [],
} as const satisfies Record<string, readonly Role[]>;

/**
 * A pet's sex as stored. Here rather than beside the pet schemas: the public profile shows it, and
 * importing pet.ts would bring its schemas and the phone-number metadata into the public pages.
 */
export const sexes = [
  { id: 0, name: 'Unknown' },
  { id: 1, name: 'Male' },
  { id: 2, name: 'Female' },
] as const;

export const limits = {
  breedsMax: 3,
  notesMax: 200,
  /** The pet's colour and markings, one line ("Black and tan, white chest"). */
  colourMax: 60,
  incidentDescriptionMax: 200,
  petNameMinRegistration: 2,
  petNameMinOwnerEdit: 3,
  personNameMin: 2,
  chipIdMin: 9,
  backupContactNameMin: 2,
  backupContactPhoneMin: 9,
  phoneMax: 19,
  emailMax: 255,
  passwordMax: 255,
  lookupLengths: [9, 10, 15],
  /** Spec 9: over about 2 MB an image is marked large (it still uploads, slowly). */
  imageBytesMax: 2 * 1024 * 1024,
  /** The largest image the server takes: twice the spec's "about 2 MB", so a large phone photo still fits. */
  imageUploadBytesMax: 4 * 1024 * 1024,
  /**
   * The most pixels an uploaded image may have, checked before it is decoded: a 48-megapixel phone's
   * photo (8064 × 6048, 48.8 MP) passes and is scaled down like any other; a few kilobytes of PNG
   * declaring more is refused before it costs memory and seconds of work.
   */
  imagePixelsMax: 50_000_000,
  alertRadiusMiles: 50,
  /**
   * A pet's own vet hears of its alert when it lies this far or nearer from where the pet was last
   * seen: farther than the radius (a vet across town still knows the pet), never across the country.
   */
  ownVetReachMiles: 100,
  emailStatsDays: 30,
  /** The finder's form (/found): the finder's name, message, where the pet is, and the answer to the owner's question. */
  finderNameMax: 100,
  foundMessageMax: 500,
  foundWhereMax: 200,
  verificationQuestionMax: 200,
  verificationAnswerMax: 200,
} as const;

/** Longest data URL an image field takes: base64 of the largest image, plus its `data:image/…;base64,` head. */
export const imageDataUrlMax = Math.ceil(limits.imageUploadBytesMax / 3) * 4 + 100;

export const ui = {
  sidePanelWidth: 280,
  snackbarAutoHideMs: 2000,
  toastStackMax: 5,
  backupContactLoaderDelayMs: 300,
  menuHoverDelayMs: 150,
  profileLoaderMs: 2000,
  resetSuccessToastMs: 60_000,
  resetErrorMs: 3000,
  signInErrorMs: 8000,
  forgotPasswordErrorMs: 8000,
  createUserErrorMs: 5000,
  checkoutErrorMs: 5000,
  petErrorMs: 10_000,
  searchTableMaxHeight: 580,
} as const;

export const support = {
  lookupExtension: '703',
  /**
   * Home link when HOME_URL is not set: the public lookup page. The portal root is no home page,
   * since it leads a signed-in owner to the dashboard.
   */
  defaultHomeUrl: '/microchip-lookup',
  /** Help for owners who do not know their pet's chip number (lookup page). */
  findChipNumberUrl: 'https://www.petlink.net/blog/find-pets-microchip-number/',
  /** AAHA's lookup across participating registries: the next stop for a chip not registered here. */
  universalLookupUrl: 'https://www.petmicrochiplookup.org/',
} as const;

/**
 * Administrators' long lists (the user search, the mail log) count their matches up to this many:
 * part of a common name matches thousands of accounts, and the mail log grows by thousands of alert
 * e-mails a day, so counting every match would cost more than the page itself. Nobody pages that far;
 * they narrow the search.
 */
export const matchCountLimit = 1000;

export interface CountedMatches {
  /** Matches over every page, counted up to matchCountLimit. */
  total: number;
  /** More match than total says. */
  totalCapped: boolean;
}
