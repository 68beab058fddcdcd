import { formatMoney, messages, paths, type PaymentCompletion } from '@petreg/contract';
import { CardGiftcard, CheckCircle, HealthAndSafety } from '@mui/icons-material';
import { Alert, Box, Button, CircularProgress, Divider, Paper, Stack, Typography } from '@mui/material';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { useSession } from '../auth/session';
import { PartnerOfferLink } from '../perks/PerksPage';
import { petInsuranceOffer } from '../perks/partnerOffers';
import { usePet } from '../pets/api';
import { registrationStatus } from '../pets/petDisplay';
import { usePaymentCompletion } from './api';
import { CheckoutLayout } from './CheckoutLayout';

/** pet-registration-complete?session_id=: the Thank You page after paying (spec 2.1, 3). */
export function PaymentCompletePage() {
  const sessionId = useSearchParams()[0].get('session_id');
  if (!sessionId) return <Navigate to={paths.client} replace />;
  return (
    <CheckoutLayout>
      <Box sx={{ maxWidth: 720, mx: 'auto' }}>
        <Completion key={sessionId} sessionId={sessionId} />
      </Box>
    </CheckoutLayout>
  );
}

function DashboardButton() {
  return (
    <Button component={RouterLink} to={paths.client} variant="contained" size="large">
      Go to dashboard
    </Button>
  );
}

function Completion({ sessionId }: { sessionId: string }) {
  const completion = usePaymentCompletion(sessionId);

  if (completion.isError) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
          {firstError(completion.error, messages.genericError)}
        </Alert>
        <Stack direction="row" spacing={1.5}>
          <Button variant="outlined" size="large" onClick={() => void completion.refetch()}>
            Try again
          </Button>
          <DashboardButton />
        </Stack>
      </Stack>
    );
  }
  if (!completion.data) {
    return (
      <Stack spacing={2} role="status" sx={{ alignItems: 'center', py: 8, textAlign: 'center' }}>
        <CircularProgress aria-hidden />
        <Typography variant="h3" component="p">
          Confirming your payment…
        </Typography>
        <Typography color="text.secondary">This can take a few seconds.</Typography>
      </Stack>
    );
  }
  return <ThankYou completion={completion.data} />;
}

function DetailRow({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', columnGap: 2 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere', textAlign: { sm: 'right' } }}>{value}</Typography>
    </Stack>
  );
}

function ThankYou({ completion }: { completion: PaymentCompletion }) {
  const pet = usePet(completion.petId);
  const { user } = useSession();
  const petName = pet.data?.name;
  const isMember = user?.role.includes('paidcustomer') ?? false;

  return (
    <Stack spacing={3}>
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <CheckCircle color="success" sx={{ fontSize: 64 }} aria-hidden />
        <Typography variant="h1">Thank You</Typography>
        <Typography color="text.secondary" sx={{ fontSize: '1.1rem' }}>
          {petName ? `${petName} is now protected.` : 'Your pet is now protected.'} Your payment was received and a receipt
          is on its way to your inbox.
        </Typography>
      </Stack>

      <Paper variant="outlined" component="section" aria-labelledby="order-details" sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Typography id="order-details" variant="h3" component="h2" sx={{ mb: 2 }}>
          Your order
        </Typography>
        <Stack spacing={1.5} divider={<Divider flexItem />}>
          {pet.data && <DetailRow label="Pet" value={pet.data.name} />}
          {pet.data && <DetailRow label="Registration" value={registrationStatus(pet.data)} />}
          <DetailRow label="Amount paid" value={formatMoney(completion.orderTotal, completion.currency)} />
          {completion.coupon && <DetailRow label="Coupon" value={completion.coupon} />}
          {completion.customerEmail && <DetailRow label="Receipt sent to" value={completion.customerEmail} />}
          {completion.paymentId && <DetailRow label="Payment reference" value={completion.paymentId} />}
        </Stack>
        <Box sx={{ mt: 3 }}>
          <DashboardButton />
        </Box>
      </Paper>

      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="insurance-offer"
        sx={{ p: { xs: 2.5, sm: 3 }, bgcolor: 'rgba(15, 94, 107, 0.05)', borderColor: 'primary.light' }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ alignItems: { sm: 'center' } }}>
          <HealthAndSafety color="primary" sx={{ fontSize: 48 }} aria-hidden />
          <Box sx={{ flexGrow: 1 }}>
            <Typography id="insurance-offer" variant="h3" component="h2" gutterBottom>
              {petName ? `Protect ${petName} with affordable pet insurance` : 'Affordable pet insurance'}
            </Typography>
            <Typography color="text.secondary">{petInsuranceOffer.description}</Typography>
          </Box>
          <Box sx={{ flexShrink: 0 }}>
            <PartnerOfferLink offer={petInsuranceOffer} />
          </Box>
        </Stack>
      </Paper>

      {isMember && (
        <Alert
          severity="success"
          icon={<CardGiftcard />}
          action={
            <Button component={RouterLink} to={paths.clientMemberPerks} color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }}>
              See Member Perks
            </Button>
          }
        >
          Your membership unlocks partner discounts on telehealth vet visits, pet meds and GPS collars.
        </Alert>
      )}
    </Stack>
  );
}
