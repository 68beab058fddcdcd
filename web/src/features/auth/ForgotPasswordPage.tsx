import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordSchema, messages, paths, ui } from '@petreg/contract';
import { Alert, Button, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { FormTextField } from '../../components/FormTextField';
import { useForgotPasswordRequest } from './api';
import { AuthLayout } from './AuthLayout';
import { useTimedFieldError } from './useTimedFieldError';

export function ForgotPasswordPage() {
  const request = useForgotPasswordRequest();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { control, handleSubmit, setError, clearErrors } = useForm({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const showEmailError = useTimedFieldError(setError, clearErrors);

  const onSubmit = handleSubmit(({ email }) =>
    request.mutate(email, {
      onSuccess: () => setSentTo(email),
      onError: () => showEmailError('email', messages.emailSendingFailed, ui.forgotPasswordErrorMs),
    }),
  );

  return (
    <AuthLayout title="Forgot password?" subtitle="Enter the e-mail of your account and we will send you a link to reset your password.">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        {sentTo && (
          <Alert severity="success" role="status">
            We sent a password reset link to {sentTo}. If it does not arrive in a few minutes, please check your spam
            folder.
          </Alert>
        )}
        <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" autoFocus />
        <Button type="submit" variant="contained" size="large" loading={request.isPending}>
          Send reset link
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center', pt: 1 }}>
          Remembered it?{' '}
          <Link component={RouterLink} to={paths.signIn}>
            Back to sign in
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
