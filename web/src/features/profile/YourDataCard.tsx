import { zodResolver } from '@hookform/resolvers/zod';
import { closeAccountSchema, messages, paymentFieldsKeptOnClosing, paths, type User } from '@petreg/contract';
import { Download, NoAccounts } from '@mui/icons-material';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Divider, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { api, firstError, saveBlob } from '../../app/api';
import { toast } from '../../app/toast';
import { PasswordField } from '../../components/PasswordField';
import { SectionCard } from '../../components/SectionCard';
import { useSession } from '../auth/session';

const keptOfPayments = `${paymentFieldsKeptOnClosing.slice(0, -1).join(', ')} and the ${paymentFieldsKeptOnClosing.at(-1)}`;

/** "Your Data": take everything away as a file, or close the account and have it erased. */
export function YourDataCard({ user }: { user: User }) {
  const [closing, setClosing] = useState(false);
  const download = useMutation({
    mutationFn: () => api.file('Users/export', 'pet-registry-data.json'),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
  });
  const isAdministrator = user.role.includes('admin');

  return (
    <SectionCard title="Your Data">
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="body2">
          Download one file (JSON) of everything we hold about your account: your profile, pets and microchips, backup contacts, vets,
          payments, lost pet alerts (with how many professionals each reached), found reports, pet transfers, and the e-mails and texts we sent you.
        </Typography>
        <Button variant="outlined" startIcon={<Download />} loading={download.isPending} onClick={() => download.mutate()}>
          Download my data
        </Button>
        <Divider flexItem />
        <Typography variant="h4" component="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
          Close your account
        </Typography>
        <Typography variant="body2">
          Closing erases at once your name, e-mail, phone numbers, address and photo, your pets' photos and notes, your backup contacts, and
          the messages of your alerts and found reports (with the finders' details). Your pets leave the microchip lookup and their public
          profiles, open alerts end, and you are signed out everywhere. Of each payment we keep only the {keptOfPayments}, for our accounts.
          This cannot be undone.
        </Typography>
        {isAdministrator ? (
          <Alert severity="info">{messages.adminCannotCloseAccount}</Alert>
        ) : (
          <Button variant="outlined" color="error" startIcon={<NoAccounts />} onClick={() => setClosing(true)}>
            Close my account
          </Button>
        )}
      </Stack>
      {closing && <CloseAccountDialog onCancel={() => setClosing(false)} />}
    </SectionCard>
  );
}

function CloseAccountDialog({ onCancel }: { onCancel: () => void }) {
  const titleId = useId();
  const navigate = useNavigate();
  const { signOut } = useSession();
  const close = useMutation({ mutationFn: (password: string) => api.post<boolean>('Users/close-account', { password }, { ignoreUnauthorized: true }) });
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(closeAccountSchema), defaultValues: { password: '' } });

  const onSubmit = handleSubmit(({ password }) =>
    close.mutate(password, {
      onSuccess: async () => {
        await signOut({ serverAlreadyEnded: true });
        toast(messages.accountClosed, { variant: 'success' });
        void navigate(paths.signIn, { replace: true });
      },
      onError: (failure) => {
        const message = firstError(failure, messages.genericError);
        if (message === messages.currentPasswordWrong) setError('password', { type: 'server', message }, { shouldFocus: true });
        else setError('root.server', { type: 'server', message });
      },
    }),
  );

  return (
    <Dialog open onClose={close.isPending ? undefined : onCancel} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>Close your account?</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>Your details are erased at once and cannot be brought back. Enter your password to confirm.</DialogContentText>
            {errors.root?.server && <Alert severity="error">{errors.root.server.message}</Alert>}
            <PasswordField control={control} name="password" label="Password" autoComplete="current-password" autoFocus />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={close.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="error" loading={close.isPending}>
            Close my account
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
