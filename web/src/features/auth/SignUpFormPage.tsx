import { zodResolver } from '@hookform/resolvers/zod';
import { messages, paths, signUpSchema, storageKeys, ui } from '@petreg/contract';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { FormTextField } from '../../components/FormTextField';
import { newPasswordHelp, PasswordField } from '../../components/PasswordField';
import { useSignUpRequest } from './api';
import { AuthLayout } from './AuthLayout';
import { useSession } from './session';
import { readSignUpData, saveSignUpData } from './signUpData';
import { useTimedFieldError } from './useTimedFieldError';

export function SignUpFormPage() {
  const [params] = useSearchParams();
  const email = params.get('email');
  if (!email) return <Navigate to={paths.signUp} replace />;
  return <SignUpForm email={email} />;
}

/** Sign-up step two: the owner's details; the account is created here, then the pet comes next. */
function SignUpForm({ email }: { email: string }) {
  const session = useSession();
  const request = useSignUpRequest();
  const stored = readSignUpData();
  const earlier = stored?.email === email ? stored : null;
  const { control, handleSubmit, setError, clearErrors } = useForm({
    resolver: zodResolver(signUpSchema),
    defaultValues: {
      email,
      firstName: earlier?.firstName ?? '',
      lastName: earlier?.lastName ?? '',
      phoneNumber: earlier?.phoneNumber ?? '',
      password: '',
    },
  });
  const showEmailError = useTimedFieldError(setError, clearErrors);

  const onSubmit = handleSubmit((input) =>
    request.mutate(input, {
      onSuccess: (result) => {
        const { password: _password, ...details } = input;
        saveSignUpData(details);
        // The access guard sends the new owner on once the session starts.
        sessionStorage.setItem(storageKeys.redirectUrl, paths.petRegister);
        session.signUp(result);
      },
      onError: (error) =>
        showEmailError('email', firstError(error, messages.registrationUnavailable), ui.createUserErrorMs),
    }),
  );

  return (
    <AuthLayout marketing title="Tell us about you" subtitle="We use these details to reach you if your pet is found.">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        <FormTextField control={control} name="email" label="Email" slotProps={{ htmlInput: { readOnly: true } }} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField control={control} name="firstName" label="First Name" autoComplete="given-name" autoFocus />
          <FormTextField control={control} name="lastName" label="Last Name" autoComplete="family-name" />
        </Stack>
        <FormTextField control={control} name="phoneNumber" label="Mobile Phone" type="tel" autoComplete="tel" />
        <PasswordField
          control={control}
          name="password"
          label="Password"
          autoComplete="new-password"
          helperText={newPasswordHelp}
        />
        <Button type="submit" variant="contained" size="large" loading={request.isPending}>
          Continue to pet info
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          Not your e-mail?{' '}
          <Link component={RouterLink} to={paths.signUp}>
            Start over
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
