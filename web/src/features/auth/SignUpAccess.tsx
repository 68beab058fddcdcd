import { messages, paths, type User } from '@petreg/contract';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router';
import { api } from '../../app/api';
import { GuestOnly, isSignedIn } from '../../app/access';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { useSession } from './session';
import { isLeavingSignUp, readSignUpData, signUpReturnPath } from './signUpData';

/**
 * Spec 4: an owner who steps back into the sign-up screens before the first pet is registered (the Back
 * button of pet-register, or the browser's back to the details form while the sign-up details are
 * still stored) is leaving the unfinished sign-up. Any other arrival (a link that lands on sign-up)
 * is not.
 */
function isReturning(user: User, location: Location): boolean {
  if (isLeavingSignUp(location.state)) return true;
  return location.pathname === paths.signUpForm && readSignUpData()?.email.toLowerCase() === user.data.email.toLowerCase();
}

/**
 * The sign-up screens: guests only, except that an owner coming back to them has the new account
 * deactivated, is signed out, and lands on the details form with the e-mail (or on sign-up).
 */
export function SignUpAccess() {
  // Each arrival is judged on its own, so the screen an owner has just signed up on is not a return.
  return <SignUpArrival key={useLocation().key} />;
}

function SignUpArrival() {
  const { user, signOut } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [returning] = useState(() => isSignedIn(user) && isReturning(user, location));
  const started = useRef(false);

  useEffect(() => {
    if (!returning || started.current) return;
    started.current = true;
    api.get<boolean>('Users/deactivate-user').then(
      async () => {
        // Deactivation already ended every session of the account on the server.
        await signOut({ serverAlreadyEnded: true });
        await navigate(signUpReturnPath(), { replace: true });
      },
      (error: unknown) => {
        console.warn('Deactivating the unfinished sign-up failed.', error);
        toast(messages.navigateBackFailed, { variant: 'error' });
        void navigate(paths.petRegister, { replace: true });
      },
    );
  }, [returning, signOut, navigate]);

  if (returning && isSignedIn(user)) return <CenteredSpinner fullScreen />;
  return <GuestOnly />;
}
