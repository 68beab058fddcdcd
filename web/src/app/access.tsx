import { paths, storageKeys, type Role, type User } from '@petreg/contract';
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../features/auth/session';
import { accessToken } from './api';

/** Spec 4: a user with no role counts as not logged in. */
export function isSignedIn(user: User | null): user is User {
  return user !== null && user.role.length > 0;
}

export function homePath(user: User): string {
  return user.role.includes('admin') ? paths.adminDashboard : paths.client;
}

/** Lets through users holding one of `roles`; guests go to sign-in and come back after it. */
export function RequireRole({ roles }: { roles: readonly Role[] }) {
  const { user } = useSession();
  const location = useLocation();
  if (!isSignedIn(user)) return <SignInFirst from={`${location.pathname}${location.search}`} />;
  if (!user.role.some((role) => roles.includes(role))) return <Navigate to={homePath(user)} replace />;
  return <Outlet />;
}

/** Spec 2.1: the sign-up flow's plan choice sends a visitor without a stored access token to sign-up. */
export function RequireStoredToken() {
  if (!accessToken.get()) return <Navigate to={paths.signUp} replace />;
  return <Outlet />;
}

function SignInFirst({ from }: { from: string }) {
  useEffect(() => sessionStorage.setItem(storageKeys.redirectUrl, from), [from]);
  return <Navigate to={paths.signIn} replace />;
}

/** Screens for guests only; a signed-in user moves on to where the session should start. */
export function GuestOnly() {
  const { user } = useSession();
  if (isSignedIn(user)) return <ContinueAfterSignIn user={user} />;
  return <Outlet />;
}

/** Only paths inside this app, never another site. */
function isAppPath(path: string | null | undefined): path is string {
  return Boolean(path?.startsWith('/') && !path.startsWith('//'));
}

/** Spec 4: the remembered path first (used once), then the user's configured start page, then home. */
function startPath(user: User): string {
  const remembered = sessionStorage.getItem(storageKeys.redirectUrl);
  if (isAppPath(remembered)) return remembered;
  const configured = user.data.settings.loginRedirectUrl;
  if (isAppPath(configured) && configured !== paths.root) return configured;
  return homePath(user);
}

function ContinueAfterSignIn({ user }: { user: User }) {
  const navigate = useNavigate();
  const [target] = useState(() => startPath(user));
  useEffect(() => {
    sessionStorage.removeItem(storageKeys.redirectUrl);
    void navigate(target, { replace: true });
  }, [navigate, target]);
  return null;
}
