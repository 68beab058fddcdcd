/**
 * Screen paths of spec section 2.1. The web app routes by them and the server writes them into
 * links it sends (reset-password e-mails, redirects after checkout).
 */
export const paths = {
  root: '/',
  signUp: '/sign-up',
  signUpForm: '/sign-up-form',
  signIn: '/sign-in',
  signOut: '/sign-out',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** Opened from the link mailed at sign-up or to a new e-mail address; read with `?token=`. */
  confirmEmail: '/confirm-email',
  /** Opened from the link texted to a backup contact; read with `?token=`. */
  backupContactConfirm: '/backup-contact/confirm',
  /** Opened from "Is this still how we reach you?" (e-mail or text); read with `?token=`. */
  contactsConfirm: '/contacts/confirm',
  petRegister: '/pet-register',
  healthcheck: '/healthcheck',
  microchipLookup: '/microchip-lookup',
  /** Followed by the pet's public id. */
  petProfiles: '/pet-profiles',
  /** Followed by the pet's short id: the address printed on collar tags. */
  short: '/short',
  /** The finder's form that reaches a pet's owner: read with `?pet=` (a public id) or `?chip=` (a chip number). */
  found: '/found',
  /** The page of a transfer offer's mailed link: read with `?token=`. */
  petTransfer: '/pet-transfer',
  notFound: '/404',
  /** The portal's own legal pages; their text is the operator's (see the server's legal documents). */
  privacy: '/privacy',
  terms: '/terms',
  client: '/client',
  clientDashboard: '/client/dashboard',
  clientPets: '/client/pet',
  clientPetAdd: '/client/pet/add',
  clientPetRegister: '/client/pet/register',
  /** Followed by the pet id: `withId(paths.clientPetUpdate, 7)`. */
  clientPetUpdate: '/client/pet/update',
  clientPetCheckout: '/client/pet/checkout',
  petSubscription: '/pet-subscription',
  /** Thank You page after paying; read with `?session_id=`. */
  petRegistrationComplete: '/pet-registration-complete',
  /** The portal's own checkout page (embedded payments), followed by the checkout session id. */
  checkout: '/checkout',
  /** The portal's own billing dashboard (embedded payments). */
  billing: '/billing',
  /** Vet search; also followed by a pet id, for the pet the vet is being added to. */
  clientAddVet: '/client/add-vet',
  /** Assign the chosen vet to pets: followed by the site id. */
  clientAddVetOnPet: '/client/add-vet-on-pet',
  /** The vet's profile: followed by the site id. */
  clientVetInfo: '/client/vet-info/profile',
  /** The older vet profile pages: followed by the site id. */
  clientVetDetail: '/client/vet-detail',
  clientVetProfile: '/client/vet/profile',
  clientProfile: '/client/profile',
  /** Lost pet selection and analytics; followed by a pet id, the lost alert form (`alertFormPath`). */
  clientAddAlert: '/client/add-alert',
  /** A found report in the owner's inbox: followed by the report id. */
  clientFoundReports: '/client/found-reports',
  clientMemberPerks: '/client/member-perks',
  clientPerks: '/client/perks',
  admin: '/admin',
  adminDashboard: '/admin-dashboard',
  adminSearch: '/admin-search',
  /** A pet and its owner as administrators edit them: followed by the pet id. */
  adminPet: '/admin/pet',
  /** Accounts found by the administrators' search: followed by the search term. */
  adminUsers: '/admin/users',
  /** Card payments found by their last 4 digits: followed by the digits. */
  adminStripeSearch: '/admin/stripe-search',
  adminSites: '/admin-sites',
  adminSendEmail: '/admin-send-email',
  /** Keys to the open lookup for shelters, clinics and other registries. */
  adminApiKeys: '/admin-api-keys',
  bulkPetUpload: '/bulk-pet-upload',
} as const;

/** A screen path followed by a record id: `withId(paths.clientPetUpdate, 7)` is `/client/pet/update/7`. */
export function withId(path: string, id: number | string): string {
  return `${path}/${id}`;
}

/** "Reach the owner": the finder's form for a pet (by its public id) or a registered chip. */
export function reachOwnerPath(about: { pet: string } | { chip: string }): string {
  const [name, value] = 'pet' in about ? ['pet', about.pet] : ['chip', about.chip];
  return `${paths.found}?${new URLSearchParams({ [name]: value })}`;
}

/** The lost alert form of a pet: client/add-alert/{petId}. */
export const alertFormPath = (petId: number) => withId(paths.clientAddAlert, petId);

/** Lost Pet Alert Sent: client/add-alert/{petId}/sent. */
export const alertSentPath = (petId: number) => `${alertFormPath(petId)}/sent`;
