import { paths, roleGroups } from '@petreg/contract';
import { createBrowserRouter, Navigate } from 'react-router';
import { AdminDashboardPage } from '../features/admin/AdminDashboardPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { SignInPage } from '../features/auth/SignInPage';
import { SignOutPage } from '../features/auth/SignOutPage';
import { SignUpFormPage } from '../features/auth/SignUpFormPage';
import { SignUpPage } from '../features/auth/SignUpPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { HealthCheckPage } from '../features/public/HealthCheckPage';
import { NotFoundPage } from '../features/public/NotFoundPage';
import { GuestOnly, RequireRole } from './access';
import { Shell } from './shell/Shell';

/** Admins may open the owners' screens too (spec 6). */
const ownerRoles = [...roleGroups.user, ...roleGroups.admin];

/** The route table of spec 2.1, as far as this increment goes. */
export const router = createBrowserRouter([
  { index: true, element: <Navigate to={paths.client} replace /> },
  {
    element: <GuestOnly />,
    children: [
      { path: paths.signUp, element: <SignUpPage /> },
      { path: paths.signUpForm, element: <SignUpFormPage /> },
      { path: paths.signIn, element: <SignInPage /> },
      { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
      { path: paths.resetPassword, element: <ResetPasswordPage /> },
    ],
  },
  { path: paths.signOut, element: <SignOutPage /> },
  { path: paths.healthcheck, element: <HealthCheckPage /> },
  {
    element: <Shell />,
    children: [
      {
        element: <RequireRole roles={ownerRoles} />,
        children: [
          { path: paths.client, element: <DashboardPage /> },
          { path: paths.clientDashboard, element: <DashboardPage /> },
          { path: paths.clientProfile, element: <ProfilePage /> },
        ],
      },
      {
        element: <RequireRole roles={roleGroups.admin} />,
        children: [
          { path: paths.adminDashboard, element: <AdminDashboardPage /> },
          { path: paths.admin, element: <AdminDashboardPage /> },
        ],
      },
      { path: paths.notFound, element: <NotFoundPage /> },
    ],
  },
  { path: '*', element: <Navigate to={paths.signUp} replace /> },
]);
