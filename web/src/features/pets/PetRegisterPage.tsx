import type { User } from '@petreg/contract';
import { ArrowBack } from '@mui/icons-material';
import { Button } from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router';
import { homePath } from '../../app/access';
import { AuthLayout } from '../auth/AuthLayout';
import { useSession } from '../auth/session';
import { clearSignUpData, signUpReturnPath, type LeavingSignUp } from '../auth/signUpData';
import { afterRegistration } from './nextStep';
import { PetRegistrationForm } from './PetRegistrationForm';

/**
 * Whether this owner is in the middle of signing up. Administrators and owners with registered pets
 * open this page too, and stepping back must never deactivate their accounts.
 */
function isSigningUp(user: User | null): boolean {
  return user !== null && !user.role.includes('admin') && !user.data.haveActivePets;
}

/** Sign-up step three: the first pet, then the membership choice (spec 2.1, 4). */
export function PetRegisterPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const signingUp = isSigningUp(user);

  // Spec 4: stepping back deactivates the new account and signs out; the sign-up screens do that on arrival,
  // as they do after the browser's back button.
  const leave = () => {
    const state: LeavingSignUp = { leavingSignUp: true };
    void navigate(signUpReturnPath(), { replace: true, state });
  };

  return (
    <AuthLayout
      wide
      marketing
      title="Tell us about your pet"
      subtitle="Enter your pet's microchip number to register it with our 24/7 recovery service."
    >
      <PetRegistrationForm
        submitLabel="Continue to membership selection"
        onCreated={(created) => {
          clearSignUpData();
          void navigate(afterRegistration(created, 'signUp'));
        }}
        secondaryAction={
          signingUp ? (
            <Button size="large" startIcon={<ArrowBack />} onClick={leave}>
              Back
            </Button>
          ) : (
            user && (
              <Button size="large" component={RouterLink} to={homePath(user)}>
                Go to dashboard
              </Button>
            )
          )
        }
      />
    </AuthLayout>
  );
}
