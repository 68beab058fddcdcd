import { legalDocuments, paths, roleGroups } from '@petreg/contract';
import { Navigate, type RouteObject } from 'react-router';
import { CenteredSpinner } from '../components/CenteredSpinner';
import { finderRoutes } from '../features/public/routes';
import { GuestOnly, RequireRole, RequireStoredToken } from './access';
import { page } from './lazyPage';

/** Admins may open the owners' screens too (spec 6). */
const ownerRoles = [...roleGroups.user, ...roleGroups.admin];
/** Spec 6: the sign-up flow's own screens (pet-register, plan choice, completion). */
const signUpFlowRoles = ['customer', 'admin'] as const;

/** The vet screens load when first opened; the dashboard and pet page carry only their vet cards. */
const vetProfile = (variant: 'portal' | 'plain') => () =>
  import('../features/vets/VetProfilePage').then(({ VetProfilePage }) => ({ element: <VetProfilePage variant={variant} /> }));

/** The route table of spec 2.1, as far as this increment goes. */
export const routes: RouteObject[] = [
  {
    // Opening the portal on a lazily loaded screen shows the spinner a signed-in session loads behind.
    hydrateFallbackElement: <CenteredSpinner fullScreen />,
    children: [
      { index: true, element: <Navigate to={paths.client} replace /> },
      {
        lazy: page(() => import('../features/auth/SignUpAccess'), 'SignUpAccess'),
        children: [
          { path: paths.signUp, lazy: page(() => import('../features/auth/SignUpPage'), 'SignUpPage') },
          { path: paths.signUpForm, lazy: page(() => import('../features/auth/SignUpFormPage'), 'SignUpFormPage') },
        ],
      },
      {
        element: <GuestOnly />,
        children: [
          { path: paths.signIn, lazy: page(() => import('../features/auth/SignInPage'), 'SignInPage') },
          { path: paths.forgotPassword, lazy: page(() => import('../features/auth/ForgotPasswordPage'), 'ForgotPasswordPage') },
          { path: paths.resetPassword, lazy: page(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage') },
        ],
      },
      {
        element: <RequireRole roles={signUpFlowRoles} />,
        children: [
          { path: paths.petRegister, lazy: page(() => import('../features/pets/PetRegisterPage'), 'PetRegisterPage') },
          { path: paths.petRegistrationComplete, lazy: page(() => import('../features/payments/PaymentCompletePage'), 'PaymentCompletePage') },
        ],
      },
      {
        element: <RequireStoredToken />,
        children: [
          {
            element: <RequireRole roles={signUpFlowRoles} />,
            children: [{ path: `${paths.petSubscription}/:id`, lazy: page(() => import('../features/payments/PlanSelectionPage'), 'PetSubscriptionPage') }],
          },
        ],
      },
      // The portal's own card checkout (embedded payments): a page of its own, like a hosted checkout.
      {
        element: <RequireRole roles={ownerRoles} />,
        children: [{ path: `${paths.checkout}/:sessionId`, lazy: page(() => import('../features/payments/CheckoutPage'), 'CheckoutPage') }],
      },
      { path: paths.signOut, lazy: page(() => import('../features/auth/SignOutPage'), 'SignOutPage') },
      { path: paths.healthcheck, lazy: page(() => import('../features/public/HealthCheckPage'), 'HealthCheckPage') },
      // Opened from the link mailed to a new e-mail address, signed in or not.
      { path: paths.confirmEmail, lazy: page(() => import('../features/profile/ConfirmEmailPage'), 'ConfirmEmailPage') },
      { path: paths.petTransfer, lazy: page(() => import('../features/transfers/PetTransferPage'), 'PetTransferPage') },
      { path: paths.backupContactConfirm, lazy: page(() => import('../features/contacts/ConfirmBackupContactPage'), 'ConfirmBackupContactPage') },
      // Opened from "Is this still how we reach you?", signed in or not.
      { path: paths.contactsConfirm, lazy: page(() => import('../features/contacts/ConfirmContactsPage'), 'ConfirmContactsPage') },
      ...finderRoutes,
      // The finder's form ("Reach the owner"), opened from a profile, a short link's page or the lookup.
      { path: paths.found, lazy: page(() => import('../features/foundReports/FinderReportPage'), 'FinderReportPage') },
      // The support panel's and footers' legal links: public, so guests and owners alike can read them.
      // Loaded when opened: the markdown renderer is needed on these two pages only.
      ...legalDocuments.map((document) => ({
        path: paths[document],
        lazy: () => import('../features/public/LegalPage').then(({ LegalPage }) => ({ element: <LegalPage document={document} /> })),
      })),
      // The older vet pages (spec 2.1): the vet's page under a plain header linking home, outside the shell.
      {
        element: <RequireRole roles={ownerRoles} />,
        children: [
          { path: `${paths.clientVetDetail}/:id`, lazy: vetProfile('plain') },
          { path: `${paths.clientVetProfile}/:id`, lazy: vetProfile('plain') },
        ],
      },
      {
        lazy: page(() => import('./shell/Shell'), 'Shell'),
        children: [
          {
            element: <RequireRole roles={ownerRoles} />,
            children: [
              { path: paths.client, lazy: page(() => import('../features/dashboard/DashboardPage'), 'DashboardPage') },
              { path: paths.clientDashboard, lazy: page(() => import('../features/dashboard/DashboardPage'), 'DashboardPage') },
              { path: paths.clientPets, lazy: page(() => import('../features/pets/PetsPage'), 'PetsPage') },
              { path: paths.clientPetAdd, lazy: page(() => import('../features/pets/AddPetPage'), 'AddPetPage') },
              { path: paths.clientPetRegister, lazy: page(() => import('../features/pets/AddPetPage'), 'AddPetPage') },
              { path: `${paths.clientPetUpdate}/:id`, lazy: page(() => import('../features/pets/PetUpdatePage'), 'PetUpdatePage') },
              { path: paths.clientProfile, lazy: page(() => import('../features/profile/ProfilePage'), 'ProfilePage') },
              { path: `${paths.clientPetCheckout}/:id`, lazy: page(() => import('../features/payments/PlanSelectionPage'), 'ClientPetCheckoutPage') },
              { path: paths.clientPerks, lazy: page(() => import('../features/perks/PerksPage'), 'PerksPage') },
              { path: paths.clientMemberPerks, lazy: page(() => import('../features/perks/PerksPage'), 'PerksPage') },
              { path: paths.billing, lazy: page(() => import('../features/payments/BillingPage'), 'BillingPage') },
              { path: paths.clientFoundReports, lazy: page(() => import('../features/foundReports/FoundReportsPage'), 'FoundReportsPage') },
              { path: `${paths.clientFoundReports}/:id`, lazy: page(() => import('../features/foundReports/FoundReportPage'), 'FoundReportPage') },
              {
                path: `${paths.clientAddVet}/:petId?`,
                lazy: page(() => import('../features/vets/VetSearchPage'), 'VetSearchPage'),
              },
              {
                path: `${paths.clientAddVetOnPet}/:id?`,
                lazy: page(() => import('../features/vets/AssignVetPage'), 'AssignVetPage'),
              },
              { path: `${paths.clientVetInfo}/:id`, lazy: vetProfile('portal') },
              // Lost pet alerts: loaded when opened, like the legal pages.
              {
                path: paths.clientAddAlert,
                lazy: page(() => import('../features/alerts/AlertsPage'), 'AlertsPage'),
              },
              {
                path: `${paths.clientAddAlert}/:id`,
                lazy: page(() => import('../features/alerts/LostAlertFormPage'), 'LostAlertFormPage'),
              },
              {
                path: `${paths.clientAddAlert}/:id/sent`,
                lazy: page(() => import('../features/alerts/AlertSentPage'), 'AlertSentPage'),
              },
            ],
          },
          {
            element: <RequireRole roles={roleGroups.admin} />,
            children: [
              { path: paths.adminDashboard, lazy: page(() => import('../features/admin/AdminDashboardPage'), 'AdminDashboardPage') },
              { path: paths.admin, lazy: page(() => import('../features/admin/AdminDashboardPage'), 'AdminDashboardPage') },
              { path: paths.adminSites, lazy: page(() => import('../features/admin/AdminSitesPage'), 'AdminSitesPage') },
              {
                path: `${paths.adminPet}/:id`,
                lazy: page(() => import('../features/admin/records/AdminPetPage'), 'AdminPetPage'),
              },
              {
                path: paths.bulkPetUpload,
                lazy: page(() => import('../features/admin/bulkUpload/BulkPetUploadPage'), 'BulkPetUploadPage'),
              },
              { path: paths.adminSendEmail, lazy: page(() => import('../features/admin/MailLogPage'), 'MailLogPage') },
              { path: paths.adminApiKeys, lazy: page(() => import('../features/admin/apiKeys/ApiKeysPage'), 'ApiKeysPage') },
              { path: paths.adminSearch, lazy: page(() => import('../features/admin/search/AdminSearchPage'), 'AdminSearchPage') },
              { path: `${paths.adminUsers}/:searchkey`, lazy: page(() => import('../features/admin/search/AdminUsersPage'), 'AdminUsersPage') },
              { path: `${paths.adminStripeSearch}/:searchkey`, lazy: page(() => import('../features/admin/search/CardPaymentsPage'), 'CardPaymentsPage') },
            ],
          },
          { path: paths.notFound, lazy: page(() => import('../features/public/NotFoundPage'), 'NotFoundPage') },
        ],
      },
      { path: '*', element: <Navigate to={paths.signUp} replace /> },
    ],
  },
];
