import { legalDocuments, paths, roleGroups } from '@petreg/contract';
import { createBrowserRouter, Navigate } from 'react-router';
import { AdminDashboardPage } from '../features/admin/AdminDashboardPage';
import { AdminSitesPage } from '../features/admin/AdminSitesPage';
import { MailLogPage } from '../features/admin/MailLogPage';
import { AdminSearchPage } from '../features/admin/search/AdminSearchPage';
import { AdminUsersPage } from '../features/admin/search/AdminUsersPage';
import { CardPaymentsPage } from '../features/admin/search/CardPaymentsPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { SignInPage } from '../features/auth/SignInPage';
import { SignOutPage } from '../features/auth/SignOutPage';
import { SignUpFormPage } from '../features/auth/SignUpFormPage';
import { SignUpAccess } from '../features/auth/SignUpAccess';
import { SignUpPage } from '../features/auth/SignUpPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { AddPetPage } from '../features/pets/AddPetPage';
import { PetRegisterPage } from '../features/pets/PetRegisterPage';
import { PetsPage } from '../features/pets/PetsPage';
import { PetUpdatePage } from '../features/pets/PetUpdatePage';
import { BillingPage } from '../features/payments/BillingPage';
import { CheckoutPage } from '../features/payments/CheckoutPage';
import { PaymentCompletePage } from '../features/payments/PaymentCompletePage';
import { ClientPetCheckoutPage, PetSubscriptionPage } from '../features/payments/PlanSelectionPage';
import { PerksPage } from '../features/perks/PerksPage';
import { ConfirmEmailPage } from '../features/profile/ConfirmEmailPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { HealthCheckPage } from '../features/public/HealthCheckPage';
import { MicrochipLookupPage } from '../features/public/MicrochipLookupPage';
import { NotFoundPage } from '../features/public/NotFoundPage';
import { PetProfilePage } from '../features/public/PetProfilePage';
import { ShortLinkPage } from '../features/public/ShortLinkPage';
import { GuestOnly, RequireRole, RequireStoredToken } from './access';
import { Shell } from './shell/Shell';

/** Admins may open the owners' screens too (spec 6). */
const ownerRoles = [...roleGroups.user, ...roleGroups.admin];
/** Spec 6: the sign-up flow's own screens (pet-register, plan choice, completion). */
const signUpFlowRoles = ['customer', 'admin'] as const;

/** The vet screens load when first opened; the dashboard and pet page carry only their vet cards. */
const vetProfile = (variant: 'portal' | 'plain') => () =>
  import('../features/vets/VetProfilePage').then(({ VetProfilePage }) => ({ element: <VetProfilePage variant={variant} /> }));

/** The route table of spec 2.1, as far as this increment goes. */
export const router = createBrowserRouter([
  { index: true, element: <Navigate to={paths.client} replace /> },
  {
    element: <SignUpAccess />,
    children: [
      { path: paths.signUp, element: <SignUpPage /> },
      { path: paths.signUpForm, element: <SignUpFormPage /> },
    ],
  },
  {
    element: <GuestOnly />,
    children: [
      { path: paths.signIn, element: <SignInPage /> },
      { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
      { path: paths.resetPassword, element: <ResetPasswordPage /> },
    ],
  },
  {
    element: <RequireRole roles={signUpFlowRoles} />,
    children: [
      { path: paths.petRegister, element: <PetRegisterPage /> },
      { path: paths.petRegistrationComplete, element: <PaymentCompletePage /> },
    ],
  },
  {
    element: <RequireStoredToken />,
    children: [
      {
        element: <RequireRole roles={signUpFlowRoles} />,
        children: [{ path: `${paths.petSubscription}/:id`, element: <PetSubscriptionPage /> }],
      },
    ],
  },
  // The portal's own card checkout (embedded payments): a page of its own, like a hosted checkout.
  {
    element: <RequireRole roles={ownerRoles} />,
    children: [{ path: `${paths.checkout}/:sessionId`, element: <CheckoutPage /> }],
  },
  { path: paths.signOut, element: <SignOutPage /> },
  { path: paths.healthcheck, element: <HealthCheckPage /> },
  // Opened from the link mailed to a new e-mail address, signed in or not.
  { path: paths.confirmEmail, element: <ConfirmEmailPage /> },
  // Spec 4: the access guard always lets these through, signed in or not.
  { path: paths.microchipLookup, element: <MicrochipLookupPage /> },
  { path: `${paths.petProfiles}/:id?`, element: <PetProfilePage /> },
  { path: `${paths.short}/:id`, element: <ShortLinkPage /> },
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
    element: <Shell />,
    children: [
      {
        element: <RequireRole roles={ownerRoles} />,
        children: [
          { path: paths.client, element: <DashboardPage /> },
          { path: paths.clientDashboard, element: <DashboardPage /> },
          { path: paths.clientPets, element: <PetsPage /> },
          { path: paths.clientPetAdd, element: <AddPetPage /> },
          { path: paths.clientPetRegister, element: <AddPetPage /> },
          { path: `${paths.clientPetUpdate}/:id`, element: <PetUpdatePage /> },
          { path: paths.clientProfile, element: <ProfilePage /> },
          { path: `${paths.clientPetCheckout}/:id`, element: <ClientPetCheckoutPage /> },
          { path: paths.clientPerks, element: <PerksPage /> },
          { path: paths.clientMemberPerks, element: <PerksPage /> },
          { path: paths.billing, element: <BillingPage /> },
          {
            path: `${paths.clientAddVet}/:petId?`,
            lazy: () => import('../features/vets/VetSearchPage').then(({ VetSearchPage }) => ({ element: <VetSearchPage /> })),
          },
          {
            path: `${paths.clientAddVetOnPet}/:id?`,
            lazy: () => import('../features/vets/AssignVetPage').then(({ AssignVetPage }) => ({ element: <AssignVetPage /> })),
          },
          { path: `${paths.clientVetInfo}/:id`, lazy: vetProfile('portal') },
          // Lost pet alerts: loaded when opened, like the legal pages.
          {
            path: paths.clientAddAlert,
            lazy: () => import('../features/alerts/AlertsPage').then(({ AlertsPage }) => ({ element: <AlertsPage /> })),
          },
          {
            path: `${paths.clientAddAlert}/:id`,
            lazy: () => import('../features/alerts/LostAlertFormPage').then(({ LostAlertFormPage }) => ({ element: <LostAlertFormPage /> })),
          },
          {
            path: `${paths.clientAddAlert}/:id/sent`,
            lazy: () => import('../features/alerts/AlertSentPage').then(({ AlertSentPage }) => ({ element: <AlertSentPage /> })),
          },
        ],
      },
      {
        element: <RequireRole roles={roleGroups.admin} />,
        children: [
          { path: paths.adminDashboard, element: <AdminDashboardPage /> },
          { path: paths.admin, element: <AdminDashboardPage /> },
          { path: paths.adminSites, element: <AdminSitesPage /> },
          {
            path: `${paths.adminPet}/:id`,
            lazy: () => import('../features/admin/records/AdminPetPage').then(({ AdminPetPage }) => ({ element: <AdminPetPage /> })),
          },
          {
            path: paths.bulkPetUpload,
            lazy: () => import('../features/admin/bulkUpload/BulkPetUploadPage').then(({ BulkPetUploadPage }) => ({ element: <BulkPetUploadPage /> })),
          },
          { path: paths.adminSendEmail, element: <MailLogPage /> },
          { path: paths.adminSearch, element: <AdminSearchPage /> },
          { path: `${paths.adminUsers}/:searchkey`, element: <AdminUsersPage /> },
          { path: `${paths.adminStripeSearch}/:searchkey`, element: <CardPaymentsPage /> },
        ],
      },
      { path: paths.notFound, element: <NotFoundPage /> },
    ],
  },
  { path: '*', element: <Navigate to={paths.signUp} replace /> },
]);
