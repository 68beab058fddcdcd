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
  petRegister: '/pet-register',
  healthcheck: '/healthcheck',
  notFound: '/404',
  client: '/client',
  clientDashboard: '/client/dashboard',
  clientPets: '/client/pet',
  clientPetAdd: '/client/pet/add',
  clientAddVet: '/client/add-vet',
  clientProfile: '/client/profile',
  clientAddAlert: '/client/add-alert',
  clientMemberPerks: '/client/member-perks',
  admin: '/admin',
  adminDashboard: '/admin-dashboard',
  adminSearch: '/admin-search',
  adminSites: '/admin-sites',
  adminSendEmail: '/admin-send-email',
  bulkPetUpload: '/bulk-pet-upload',
} as const;
