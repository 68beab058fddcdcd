import { messages, paths } from '@petreg/contract';
import { Button } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { AuthLayout } from './AuthLayout';
import { useSession } from './session';

export function SignOutPage() {
  const { signOut } = useSession();

  useEffect(() => {
    void signOut();
  }, [signOut]);

  return (
    <AuthLayout title={messages.signedOut} subtitle="Thank you for keeping your pet's details up to date.">
      <Button component={RouterLink} to={paths.signIn} variant="contained" size="large" fullWidth>
        Go to sign in
      </Button>
    </AuthLayout>
  );
}
