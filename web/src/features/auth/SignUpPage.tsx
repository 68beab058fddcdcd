import { zodResolver } from '@hookform/resolvers/zod';
import { messages, paths, signUpEmailSchema, ui } from '@petreg/contract';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ApiError } from '../../app/api';
import { toast } from '../../app/toast';
import { FormTextField } from '../../components/FormTextField';
import { useEmailExistsCheck } from './api';
import { AuthLayout } from './AuthLayout';
import { SocialSignIn } from './SocialSignIn';
import { useTimedFieldError } from './useTimedFieldError';

/** Sign-up step one: the e-mail, checked against existing accounts before the details form. */
export function SignUpPage() {
  const navigate = useNavigate();
  const emailCheck = useEmailExistsCheck();
  const { control, handleSubmit, setError, clearErrors } = useForm({
    resolver: zodResolver(signUpEmailSchema),
    defaultValues: { email: '' },
  });
  const showEmailError = useTimedFieldError(setError, clearErrors);

  const onSubmit = handleSubmit(({ email }) =>
    emailCheck.mutate(email, {
      onSuccess: (existing) => {
        if (existing?.id) setError('email', { type: 'server', message: messages.emailTaken }, { shouldFocus: true });
        else void navigate(`${paths.signUpForm}?email=${encodeURIComponent(email)}`);
      },
      // Spec 8: the service being down is a toast; an answer about the e-mail (invalid, too many tries) goes on the field.
      onError: (error) => {
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.errors[0]) {
          setError('email', { type: 'server', message: error.errors[0] }, { shouldFocus: true });
        } else {
          toast(messages.registrationUnavailable, { variant: 'error' });
        }
      },
    }),
  );

  return (
    <AuthLayout
      marketing
      title="Sign up"
      subtitle="Create your account to register your pet's microchip and keep your contact details up to date."
    >
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" autoFocus />
        <Button type="submit" variant="contained" size="large" loading={emailCheck.isPending}>
          Sign up with email
        </Button>
        <SocialSignIn onError={(message) => showEmailError('email', message, ui.signInErrorMs)} />
        <Typography variant="body2" sx={{ textAlign: 'center', pt: 1 }}>
          Already have an account?{' '}
          <Link component={RouterLink} to={paths.signIn}>
            Sign in
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
