import { formatDate, messages, paths } from '@petreg/contract';
import { Alert, Button, Checkbox, FormControlLabel, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { isSignedIn } from '../../app/access';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { AuthLayout } from '../auth/AuthLayout';
import { useSession } from '../auth/session';
import { useAcceptByLink, useDeclineByLink, useTransferOffer } from './api';

/**
 * Opened from the offer's mailed link: /pet-transfer?token=… The addressee answers with a button, not
 * on opening (a mail scanner follows links). An address with an account signs in and answers on the
 * dashboard; one without accepts here, and goes on to choose a password and give the names and phone
 * the profile needs.
 */
export function PetTransferPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  return <AuthLayout title="A pet for you">{token ? <Offer token={token} /> : <Alert severity="warning">{messages.transferNotOpen}</Alert>}</AuthLayout>;
}

function Offer({ token }: { token: string }) {
  const offer = useTransferOffer(token);
  const accept = useAcceptByLink();
  const decline = useDeclineByLink();
  const navigate = useNavigate();
  const { user } = useSession();
  const [share, setShare] = useState(true);

  if (offer.isPending) return <CenteredSpinner />;
  if (offer.isError) return <Alert severity="warning">{firstError(offer.error, messages.transferNotOpen)}</Alert>;
  if (decline.isSuccess) return <Alert severity="success">{decline.data.message}</Alert>;
  const { petName, fromFirstName, toEmail, expiresAt, hasAccount } = offer.data;
  const from = fromFirstName || 'A pet owner';
  const failure = accept.error ?? decline.error;

  return (
    <Stack spacing={2}>
      <Typography variant="h2" component="h2" sx={{ fontSize: '1.25rem' }}>
        {from} wants to transfer {petName} to you
      </Typography>
      <Typography>
        {petName}&apos;s registration, microchip and protection would move to the account of <strong style={{ overflowWrap: 'anywhere' }}>{toEmail}</strong>.
        Answer by {formatDate(expiresAt)}. Nothing changes unless you accept.
      </Typography>
      {failure && <Alert severity="error">{firstError(failure, messages.genericError)}</Alert>}
      {hasAccount ? (
        <>
          <Alert severity="info">Sign in with {toEmail} to accept: the offer waits on your dashboard.</Alert>
          <Button variant="contained" component={RouterLink} to={isSignedIn(user) ? paths.clientDashboard : paths.signIn}>
            {isSignedIn(user) ? 'Go to your dashboard' : 'Sign in to accept'}
          </Button>
        </>
      ) : (
        <>
          <FormControlLabel
            control={<Checkbox checked={share} onChange={(_, checked) => setShare(checked)} />}
            label={`Show my phone number on ${petName}'s public profile when ${petName} is lost`}
          />
          <Button
            variant="contained"
            loading={accept.isPending}
            disabled={decline.isPending}
            onClick={() => accept.mutate({ token, shareContactInfo: share }, { onSuccess: ({ setPasswordPath }) => void navigate(setPasswordPath ?? paths.signIn) })}
          >
            Accept {petName}
          </Button>
          <Typography variant="body2" color="text.secondary">
            We open an account for {toEmail}: next you choose its password and give your name and phone number.
          </Typography>
        </>
      )}
      <Button color="inherit" loading={decline.isPending} disabled={accept.isPending} onClick={() => decline.mutate(token)}>
        Decline
      </Button>
    </Stack>
  );
}
