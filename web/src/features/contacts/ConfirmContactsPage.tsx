import { messages, paths, type User } from '@petreg/contract';
import { Alert, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { api, firstError } from '../../app/api';
import { AuthLayout } from '../auth/AuthLayout';
import { useSession } from '../auth/session';
import { useConfirmContactsByLink } from './api';

/**
 * Opened from "Is this still how we reach you?" (e-mail or text): /contacts/confirm?token=… Opening it
 * is the one click: the contacts are confirmed with no sign-in, and the page says so.
 */
export function ConfirmContactsPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const { user, updateUser } = useSession();
  const confirm = useConfirmContactsByLink();
  const { mutate } = confirm;
  const sent = useRef(false);

  useEffect(() => {
    // Sent once: development mode runs effects twice.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token, {
      // The mailed link proves the address: a signed-in owner's e-mail banner goes at once.
      onSuccess: () => {
        if (user) void api.get<User>('Users/current-user').then(updateUser);
      },
    });
  }, [token, mutate, user, updateUser]);

  return (
    <AuthLayout title="Is this still how we reach you?">
      <Stack spacing={2}>
        {!token && <Alert severity="warning">{messages.contactsLinkInvalid}</Alert>}
        {confirm.isPending && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <CircularProgress size={24} aria-label="Confirming your contact details" />
            <Typography>Confirming your contact details…</Typography>
          </Stack>
        )}
        {confirm.isSuccess && <Alert severity="success">{messages.contactsConfirmed}</Alert>}
        {confirm.isSuccess && confirm.data.emailBounced && (
          <Alert severity="warning">Our e-mails to your address still bounce. Please check it on your profile.</Alert>
        )}
        {confirm.isError && <Alert severity="error">{firstError(confirm.error, messages.contactsLinkInvalid)}</Alert>}
        <Typography variant="body2" sx={{ textAlign: 'center', pt: 1 }}>
          Something changed?{' '}
          <Link component={RouterLink} to={paths.clientProfile}>
            Update your profile
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
