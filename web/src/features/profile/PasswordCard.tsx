import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordSchema, messages } from '@petreg/contract';
import { Alert, Box, Button, Card, CardActions, CardContent, CardHeader, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { newPasswordHelp, PasswordField } from '../../components/PasswordField';
import { useChangePassword } from './api';

const emptyForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** "Your Password": change it with the current one. */
export function PasswordCard() {
  const change = useChangePassword();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(changePasswordSchema), defaultValues: emptyForm });

  const onSubmit = handleSubmit((input) =>
    change.mutate(input, {
      onSuccess: () => {
        reset(emptyForm);
        toast(messages.passwordUpdated, { variant: 'success' });
      },
      onError: (failure) => {
        const message = firstError(failure, messages.genericError);
        if (message === messages.currentPasswordWrong) setError('currentPassword', { type: 'server', message }, { shouldFocus: true });
        else setError('root.server', { type: 'server', message });
      },
    }),
  );

  return (
    <Card component="section" aria-labelledby="your-password-title">
      <Box sx={{ height: 4 }} />
      <CardHeader title="Your Password" slotProps={{ title: { variant: 'h3', component: 'h2', id: 'your-password-title' } }} />
      <Box component="form" onSubmit={onSubmit} noValidate>
        <CardContent>
          <Stack spacing={2}>
            {errors.root?.server && <Alert severity="error">{errors.root.server.message}</Alert>}
            <PasswordField control={control} name="currentPassword" label="Current Password" autoComplete="current-password" />
            <PasswordField
              control={control}
              name="newPassword"
              label="New Password"
              autoComplete="new-password"
              helperText={newPasswordHelp}
            />
            <PasswordField control={control} name="confirmPassword" label="Confirm Password" autoComplete="new-password" />
          </Stack>
        </CardContent>
        <CardActions sx={{ justifyContent: 'flex-end', px: 2, pb: 2 }}>
          <Button type="submit" variant="contained" loading={change.isPending}>
            Update Password
          </Button>
        </CardActions>
      </Box>
    </Card>
  );
}
