import { zodResolver } from '@hookform/resolvers/zod';
import { messages, paths, signInSchema, ui } from '@petreg/contract';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../app/api';
import { FormCheckbox } from '../../components/FormCheckbox';
import { FormTextField } from '../../components/FormTextField';
import { PasswordField } from '../../components/PasswordField';
import { useSignInRequest } from './api';
import { AuthLayout } from './AuthLayout';
import { useSession } from './session';
import { SocialSignIn } from './SocialSignIn';
import { useTimedFieldError } from './useTimedFieldError';

export function SignInPage() {
  const session = useSession();
  const request = useSignInRequest();
  const { control, handleSubmit, setError, clearErrors } = useForm({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '', remember: true },
  });
  const showEmailError = useTimedFieldError(setError, clearErrors);
  const showFailure = (message: string) => showEmailError('email', message, ui.signInErrorMs);

  // On success the access guard takes the user on to the remembered page or their home.
  const onSubmit = handleSubmit((input) =>
    request.mutate(input, {
      onSuccess: session.signIn,
      onError: (error) => showFailure(firstError(error, messages.genericError)),
    }),
  );

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back. Sign in to manage your pets and their registrations.">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" autoFocus />
        <PasswordField control={control} name="password" label="Password" autoComplete="current-password" />
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <FormCheckbox control={control} name="remember" label="Remember Me" />
          <Link component={RouterLink} to={paths.forgotPassword} variant="body2">
            Forgot password?
          </Link>
        </Stack>
        <Button type="submit" variant="contained" size="large" loading={request.isPending}>
          Sign in
        </Button>
        <SocialSignIn onError={showFailure} />
        <Typography variant="body2" sx={{ textAlign: 'center', pt: 1 }}>
          Don't have an account?{' '}
          <Link component={RouterLink} to={paths.signUp}>
            Sign up
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
