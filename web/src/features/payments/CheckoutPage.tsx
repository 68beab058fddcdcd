import { zodResolver } from '@hookform/resolvers/zod';
import { cardSchema, couponPercentOff, formatMoney, messages, paths, type CheckoutOrder } from '@petreg/contract';
import { Science } from '@mui/icons-material';
import { Alert, Box, Button, Divider, Grid, Link, Paper, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { FormTextField } from '../../components/FormTextField';
import { useCancelCheckout, useCheckoutOrder, usePayCheckout } from './api';
import { CheckoutLayout } from './CheckoutLayout';

/** checkout/:sessionId: the portal's own card checkout, used when no card payment provider is configured. */
export function CheckoutPage() {
  const { sessionId } = useParams();
  if (!sessionId) return <Navigate to={paths.notFound} replace />;
  return (
    <CheckoutLayout secure>
      <Checkout key={sessionId} sessionId={sessionId} />
    </CheckoutLayout>
  );
}

function Checkout({ sessionId }: { sessionId: string }) {
  const order = useCheckoutOrder(sessionId);

  if (order.isError) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 560, mx: 'auto' }}>
        <Alert severity="error">{firstError(order.error, messages.genericError)}</Alert>
        <Link component={RouterLink} to={paths.client}>
          Back to your dashboard
        </Link>
      </Stack>
    );
  }
  if (!order.data) return <CenteredSpinner />;
  // Paid already (a second tab, the back button): on to where paying leads, the Thank You or alert sent page.
  if (order.data.status === 'complete') return <Navigate to={order.data.successUrl} replace />;
  if (order.data.status === 'canceled') return <Navigate to={order.data.cancelUrl} replace />;

  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto' }}>
      <Typography variant="h1" sx={{ mb: 3 }}>
        Checkout
      </Typography>
      <Grid container spacing={{ xs: 3, md: 4 }} sx={{ alignItems: 'flex-start' }}>
        <Grid size={{ xs: 12, md: 5 }}>
          <OrderSummary order={order.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <PaymentForm order={order.data} />
        </Grid>
      </Grid>
    </Box>
  );
}

function SummaryLine({ label, detail, amount }: { label: string; detail?: string; amount: string }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ overflowWrap: 'anywhere' }}>{label}</Typography>
        {detail && (
          <Typography variant="body2" color="text.secondary">
            {detail}
          </Typography>
        )}
      </Box>
      <Typography sx={{ whiteSpace: 'nowrap' }}>{amount}</Typography>
    </Stack>
  );
}

function OrderSummary({ order }: { order: CheckoutOrder }) {
  const money = (cents: number) => formatMoney(cents, order.currency);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="order-summary" sx={{ p: { xs: 2.5, sm: 3 } }}>
      <Typography id="order-summary" variant="h3" component="h2" sx={{ mb: 0.5 }}>
        Order summary
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2.5 }}>
        For <strong>{order.petName}</strong>
      </Typography>
      <Stack spacing={2}>
        <SummaryLine
          label={order.planName}
          detail={order.oneTime ? 'One-time payment, no renewal' : 'Billed yearly, renews automatically'}
          amount={money(order.planPriceCents)}
        />
        {order.collarTagCents > 0 && (
          <SummaryLine label="QR collar tag" detail="Shipping included" amount={money(order.collarTagCents)} />
        )}
        {order.coupon && order.discountCents > 0 && (
          <SummaryLine
            label={`Coupon ${order.coupon}`}
            detail={`${couponPercentOff}% off`}
            amount={`−${money(order.discountCents)}`}
          />
        )}
        {order.creditCents > 0 && (
          <SummaryLine
            label="Credit for unused yearly cover"
            detail="The days left on the yearly plan"
            amount={`−${money(order.creditCents)}`}
          />
        )}
        <Divider />
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography sx={{ fontWeight: 700 }}>Total due today</Typography>
          <Typography sx={{ fontWeight: 700, fontSize: '1.5rem' }}>{money(order.totalCents)}</Typography>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** Card numbers in groups of four, as printed on the card. */
function formatCardNumber(text: string): string {
  return text
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** MM/YY, the slash added once the year starts. */
function formatExpiry(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

const digitsOnly = (max: number) => (text: string) => text.replace(/\D/g, '').slice(0, max);

function PaymentForm({ order }: { order: CheckoutOrder }) {
  const navigate = useNavigate();
  const pay = usePayCheckout(order.sessionId);
  const cancel = useCancelCheckout(order.sessionId);
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(cardSchema),
    defaultValues: { name: '', cardNumber: '', expiry: '', cvc: '' },
  });
  const busy = pay.isPending || pay.isSuccess || cancel.isPending || cancel.isSuccess;

  const onSubmit = handleSubmit((card) => pay.mutate(card, { onSuccess: ({ location }) => void navigate(location) }));
  const onCancel = () => cancel.mutate(undefined, { onSuccess: ({ location }) => void navigate(location) });
  const failure = pay.error ?? cancel.error;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="payment-details" sx={{ p: { xs: 2.5, sm: 3 } }}>
      <Typography id="payment-details" variant="h3" component="h2" sx={{ mb: 2 }}>
        Payment details
      </Typography>
      <Alert severity="info" icon={<Science />} sx={{ mb: 2.5 }}>
        This is a test checkout and no card is charged. Card 4242 4242 4242 4242 pays, with any future expiry date and
        any CVC.
      </Alert>
      {failure && (
        <Alert severity="error" sx={{ mb: 2.5 }}>
          {firstError(failure, messages.genericError)}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack spacing={2}>
          <FormTextField control={control} name="name" label="Name on card" autoComplete="cc-name" disabled={busy} />
          <FormTextField
            control={control}
            name="cardNumber"
            label="Card number"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            parse={formatCardNumber}
            disabled={busy}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <Stack direction="row" spacing={2}>
            <FormTextField
              control={control}
              name="expiry"
              label="Expiry (MM/YY)"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              parse={formatExpiry}
              disabled={busy}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <FormTextField
              control={control}
              name="cvc"
              label="CVC"
              autoComplete="cc-csc"
              parse={digitsOnly(4)}
              disabled={busy}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          </Stack>
          <Button type="submit" variant="contained" size="large" fullWidth loading={pay.isPending || pay.isSuccess} disabled={busy}>
            Pay {formatMoney(order.totalCents, order.currency)}
          </Button>
          <Button onClick={onCancel} loading={cancel.isPending || cancel.isSuccess} disabled={busy} sx={{ alignSelf: 'center' }}>
            Cancel
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
