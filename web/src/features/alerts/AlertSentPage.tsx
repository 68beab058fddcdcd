import { limits, messages, paths, type Pet, type PetAlert } from '@petreg/contract';
import { MarkEmailRead } from '@mui/icons-material';
import { Alert, Avatar, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { Navigate, Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { usePaymentCompletion } from '../payments/api';
import { usePet } from '../pets/api';
import { petImage } from '../pets/petDisplay';
import { usePetAlert } from './api';

/** client/add-alert/{id}/sent: the confirmation after sending, or after paying for, an alert (spec 2.1). */
export function AlertSentPage() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <Navigate to={paths.notFound} replace />;
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Sent key={id} petId={id} />
    </Box>
  );
}

function Sent({ petId }: { petId: number }) {
  const pet = usePet(petId);
  // Back from the card provider: the portal asks it about the payment at once, as the Thank You page
  // does, rather than wait for its notice (which may come late).
  usePaymentCompletion(useSearchParams()[0].get('session_id'));
  // The payment may be confirmed a moment after the browser comes back: ask until it is.
  const alert = usePetAlert(petId, { untilSent: true });

  if (alert.isError || pet.isError) {
    return (
      <Stack spacing={2}>
        <Alert severity="error">{firstError(alert.error ?? pet.error, messages.genericError)}</Alert>
        <NextSteps />
      </Stack>
    );
  }
  // No open alert: none was sent, or the pet is home already.
  if (alert.data === null || alert.data?.status === 'found') {
    return (
      <Stack spacing={2}>
        <Alert severity="info">{messages.noAlertsFound}</Alert>
        <NextSteps />
      </Stack>
    );
  }
  if (!alert.data || !pet.data) return <CenteredSpinner />;
  if (alert.data.status === 'NEW') {
    return (
      <Stack spacing={2} role="status" sx={{ alignItems: 'center', py: 8, textAlign: 'center' }}>
        <CircularProgress aria-hidden />
        <Typography variant="h3" component="p">
          Confirming your payment…
        </Typography>
        <Typography color="text.secondary">Your alert goes out as soon as it is through.</Typography>
      </Stack>
    );
  }
  return <Confirmation pet={pet.data} alert={alert.data} />;
}

function Confirmation({ pet, alert }: { pet: Pet; alert: PetAlert }) {
  const reached = alert.recipientsCount;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
      <Box sx={{ position: 'relative', width: 112, height: 112, mx: 'auto', mb: 3 }}>
        <Avatar src={petImage(pet)} alt="" sx={{ width: 112, height: 112 }} />
        <Avatar sx={{ position: 'absolute', right: -6, bottom: -6, bgcolor: 'success.main', border: 3, borderColor: 'background.paper' }}>
          <MarkEmailRead fontSize="small" aria-hidden />
        </Avatar>
      </Box>
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        Lost Pet Alert Sent
      </Typography>
      <Typography sx={{ mb: 1, fontSize: '1.1rem' }}>
        {reached > 0 ? (
          <>
            We are e-mailing <strong>{reached}</strong> {reached === 1 ? 'pet-care professional' : 'pet-care professionals'} within{' '}
            {limits.alertRadiusMiles} miles of {alert.place} about {pet.name}.
          </>
        ) : (
          <>
            Our directory has no pet-care professional within {limits.alertRadiusMiles} miles of {alert.place} yet, so no
            e-mail went out about {pet.name}.
          </>
        )}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {pet.name}'s public profile now shows where {pet.name} was last seen. We also sent you a confirmation e-mail.
      </Typography>
      <NextSteps />
    </Paper>
  );
}

function NextSteps() {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center' }}>
      <Button component={RouterLink} to={paths.clientAddAlert} variant="contained" size="large">
        View Analytics
      </Button>
      <Button component={RouterLink} to={paths.client} variant="outlined" size="large">
        Go to dashboard
      </Button>
    </Stack>
  );
}
