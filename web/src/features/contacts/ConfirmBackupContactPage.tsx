import { messages } from '@petreg/contract';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { AuthLayout } from '../auth/AuthLayout';
import { useConfirmBackupContact } from './api';

/**
 * Opened from the link texted to a backup contact: /backup-contact/confirm?token=… The contact
 * confirms with a button, not on opening: a messaging app's link preview must not confirm for them.
 */
export function ConfirmBackupContactPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const confirm = useConfirmBackupContact();

  return (
    <AuthLayout title="Confirm your number">
      <Stack spacing={2}>
        {!token && <Alert severity="warning">{messages.backupContactLinkInvalid}</Alert>}
        {token && !confirm.isSuccess && (
          <>
            <Typography>
              A pet owner added this phone number as their backup contact: someone we may text when their pet is found and they cannot be reached.
            </Typography>
            <Button variant="contained" onClick={() => confirm.mutate(token)} disabled={confirm.isPending}>
              Confirm my number
            </Button>
          </>
        )}
        {confirm.isSuccess && <Alert severity="success">{messages.backupContactConfirmed}</Alert>}
        {confirm.isError && <Alert severity="error">{firstError(confirm.error, messages.backupContactLinkInvalid)}</Alert>}
        <Typography variant="body2" color="text.secondary">
          Not you, or no longer willing? Reply STOP to our text and we will not text you again.
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
