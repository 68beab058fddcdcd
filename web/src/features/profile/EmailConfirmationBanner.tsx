import { messages, type User } from '@petreg/contract';
import { Alert, Button } from '@mui/material';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { useResendEmailConfirmation } from './api';

/** Above every signed-in screen until the owner follows the link mailed at sign-up. */
export function EmailConfirmationBanner({ user }: { user: User }) {
  const resend = useResendEmailConfirmation();
  if (user.data.emailConfirmed) return null;
  const sendAgain = () =>
    resend.mutate(undefined, {
      onSuccess: () => toast(messages.emailConfirmationSent, { variant: 'success', duration: 6000 }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error', duration: 6000 }),
    });
  return (
    // A standing notice, not an interruption: a status, which screen readers read without cutting in.
    <Alert
      role="status"
      severity="info"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={sendAgain} disabled={resend.isPending} sx={{ whiteSpace: 'nowrap' }}>
          Send it again
        </Button>
      }
    >
      Please confirm your e-mail address. We sent a link to {user.data.email}.
    </Alert>
  );
}
