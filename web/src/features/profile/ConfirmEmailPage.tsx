import { messages, paths, type User } from '@petreg/contract';
import { Alert, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { api, firstError } from '../../app/api';
import { AuthLayout } from '../auth/AuthLayout';
import { useSession } from '../auth/session';
import { currentUserKey, useConfirmEmail } from './api';

/** Opened from the link mailed at sign-up or to a new e-mail address: /confirm-email?token=… */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const { user, updateUser } = useSession();
  const queryClient = useQueryClient();
  const confirm = useConfirmEmail();
  const { mutate } = confirm;
  const sent = useRef(false);

  useEffect(() => {
    // Sent once: the link works a single time, and development mode runs effects twice.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const refreshed = useRef(false);
  useEffect(() => {
    // A signed-in owner sees the address (and that it is confirmed) at once, in the session as on the profile.
    if (!confirm.isSuccess || !user || refreshed.current) return;
    refreshed.current = true;
    void queryClient.invalidateQueries({ queryKey: currentUserKey });
    void api.get<User>('Users/current-user').then(updateUser);
  }, [confirm.isSuccess, user, updateUser, queryClient]);

  return (
    <AuthLayout title="Confirm your email">
      <Stack spacing={2}>
        {!token && <Alert severity="warning">{messages.emailChangeLinkInvalid}</Alert>}
        {confirm.isPending && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <CircularProgress size={24} aria-label="Confirming your email" />
            <Typography>Confirming your email…</Typography>
          </Stack>
        )}
        {confirm.isSuccess && <Alert severity="success">{confirm.data.changed ? messages.emailChanged : messages.emailConfirmed}</Alert>}
        {confirm.isError && <Alert severity="error">{firstError(confirm.error, messages.emailChangeLinkInvalid)}</Alert>}
        <Typography variant="body2" sx={{ textAlign: 'center', pt: 1 }}>
          {user ? (
            <Link component={RouterLink} to={paths.clientProfile}>
              Go to your profile
            </Link>
          ) : (
            <Link component={RouterLink} to={paths.signIn}>
              Sign in
            </Link>
          )}
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
