import { zodResolver } from '@hookform/resolvers/zod';
import { invitationFormSchema, messages, paths, resetPasswordFormSchema, ui, type InvitationFormInput } from '@petreg/contract';
import { Alert, Button, Collapse, Link, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { FormTextField } from '../../components/FormTextField';
import { toast } from '../../app/toast';
import { newPasswordHelp, PasswordField } from '../../components/PasswordField';
import { useSetPasswordByTokenRequest } from './api';
import { AuthLayout } from './AuthLayout';

/**
 * Opened from the reset e-mail: /reset-password?email=…&code=…. An invitation (an account an
 * administrator opened, `&invitation=1`) also asks for the names and mobile phone the profile needs.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const email = params.get('email');
  const code = params.get('code');
  const invitation = params.get('invitation') === '1';
  const navigate = useNavigate();
  const request = useSetPasswordByTokenRequest();
  const [error, setError] = useState<string | null>(null);
  const { control, handleSubmit } = useForm<InvitationFormInput>({
    // A reset asks the password only: its schema drops the empty details (same form, fewer fields).
    resolver: zodResolver((invitation ? invitationFormSchema : resetPasswordFormSchema) as typeof invitationFormSchema),
    defaultValues: { firstName: '', lastName: '', phoneNumber: '', password: '', passwordConfirm: '' },
  });

  // Spec 8: the reset error stays 3 seconds unless dismissed sooner.
  useEffect(() => {
    if (!error) return;
    const timer = window.setTimeout(() => setError(null), ui.resetErrorMs);
    return () => window.clearTimeout(timer);
  }, [error]);

  const onSubmit = handleSubmit(({ password, firstName, lastName, phoneNumber }) => {
    if (!email || !code) return;
    setError(null);
    request.mutate(
      { email, token: code, password, ...(invitation && { firstName, lastName, phoneNumber }) },
      {
        onSuccess: () => {
          toast(messages.resetSuccess, { variant: 'success', duration: ui.resetSuccessToastMs });
          void navigate(paths.signIn);
        },
        onError: (failure) => setError(firstError(failure, messages.emailSendingFailed)),
      },
    );
  });

  return (
    <AuthLayout
      title={invitation ? 'Set up your account' : 'Reset your password'}
      subtitle={invitation ? 'Tell us how to reach you if your pet is found, then choose your password' : 'Create a new password for your account'}
    >
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        {(!email || !code) && (
          <Alert severity="warning">
            {messages.resetLinkInvalid}{' '}
            <Link component={RouterLink} to={paths.forgotPassword}>
              Request a new link
            </Link>
          </Alert>
        )}
        <Collapse in={Boolean(error)} unmountOnExit>
          <Alert severity="error" variant="filled" onClose={() => setError(null)}>
            {error}
          </Alert>
        </Collapse>
        {invitation && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormTextField control={control} name="firstName" label="First Name" autoComplete="given-name" autoFocus />
              <FormTextField control={control} name="lastName" label="Last Name" autoComplete="family-name" />
            </Stack>
            <FormTextField control={control} name="phoneNumber" label="Mobile Phone" type="tel" autoComplete="tel" />
          </>
        )}
        <PasswordField
          control={control}
          name="password"
          label="Password"
          autoComplete="new-password"
          helperText={newPasswordHelp}
          autoFocus={!invitation}
        />
        <PasswordField control={control} name="passwordConfirm" label="Password (Confirm)" autoComplete="new-password" />
        <Button type="submit" variant="contained" size="large" loading={request.isPending} disabled={!email || !code}>
          {invitation ? 'Choose your password' : 'Reset your password'}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center', pt: 1 }}>
          Return to{' '}
          <Link component={RouterLink} to={paths.signIn}>
            sign in
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
