import { formatDate, formatPhone, messages, paths, type User } from '@petreg/contract';
import { ContactMail } from '@mui/icons-material';
import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { useConfirmContacts, useContactCheck } from './api';

/**
 * On the dashboard while the owner's contacts went unconfirmed for more than 12 months, or while mail
 * to the address bounces: a finder's message is only as good as the contacts behind it.
 */
export function ContactCheckBanner({ user }: { user: User }) {
  const check = useContactCheck();
  const confirm = useConfirmContacts();
  if (!check.data || (!check.data.stale && !check.data.emailBounced)) return null;
  const { emailBounced, emailConfirmedAt, phoneConfirmedAt } = check.data;
  const last = [emailConfirmedAt, phoneConfirmedAt].filter((at): at is string => at !== null).sort().at(-1);
  const stillRight = () =>
    confirm.mutate(undefined, {
      onSuccess: () => toast(messages.contactsConfirmed, { variant: 'success' }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
    });

  return (
    <Alert severity="warning" icon={<ContactMail />} sx={{ mb: 3 }} aria-label="Is this still how we reach you?">
      <AlertTitle>{emailBounced ? 'We cannot reach your e-mail address' : 'Is this still how we reach you?'}</AlertTitle>
      {emailBounced
        ? `Our e-mails to ${user.data.email} bounce. Please check your address, so that we can tell you when someone finds your pet.`
        : `${last ? `Your contact details were last confirmed on ${formatDate(last)}.` : 'You have not confirmed your contact details in over a year.'} When someone finds your pet, we reach you at ${[user.data.email, user.data.phoneNumber && formatPhone(user.data.phoneNumber)].filter(Boolean).join(' and ')}.`}
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
        {!emailBounced && (
          <Button variant="contained" color="warning" size="small" onClick={stillRight} disabled={confirm.isPending}>
            Yes, still right
          </Button>
        )}
        <Box>
          <Button component={RouterLink} to={paths.clientProfile} variant="outlined" color="inherit" size="small">
            Update my profile
          </Button>
        </Box>
      </Stack>
    </Alert>
  );
}
