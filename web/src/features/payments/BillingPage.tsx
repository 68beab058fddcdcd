import {
  formatDate,
  formatMoney,
  formatRegisteredUntil,
  messages,
  type MicrochipSubscription,
  type PaymentRecord,
} from '@petreg/contract';
import { ReceiptLong, Shield } from '@mui/icons-material';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { CellText } from '../../components/CellText';
import { stackedTable } from '../../components/stackedTable';
import { visuallyHidden } from '../../components/visuallyHidden';
import { useBilling, useCancelRenewal } from './api';

/** billing: the portal's own billing dashboard, opened by Subscription and Manage Subscriptions (spec 2.2, 2.4). */
export function BillingPage() {
  const billing = useBilling();

  return (
    <>
      <PageHeader title="Billing" subtitle="Your pets' protection plans and the payments made for them." />
      {billing.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void billing.refetch()}>
              Try again
            </Button>
          }
        >
          {firstError(billing.error, messages.genericError)}
        </Alert>
      ) : !billing.data ? (
        <CenteredSpinner />
      ) : (
        <Stack spacing={3}>
          <SubscriptionsCard subscriptions={billing.data.subscriptions} />
          <PaymentsCard payments={billing.data.payments} />
        </Stack>
      )}
    </>
  );
}

const subscriptionStatus: Record<string, { label: string; color: ChipProps['color'] }> = {
  active: { label: 'Active', color: 'success' },
  canceled: { label: 'Renewal canceled', color: 'default' },
  expired: { label: 'Expired', color: 'warning' },
};

/** refund_due: taken but not applied to the pet (its chip or plan had changed); our support refunds it. */
const paymentStatus: Record<string, string> = { paid: 'Paid', refund_due: 'Refund due', refunded: 'Refunded' };

function statusOf(subscription: MicrochipSubscription) {
  return subscriptionStatus[subscription.status] ?? { label: subscription.status, color: 'default' };
}

/** Registered Until {MMM DD, YYYY}, or Lifetime when the chip never expires (spec 2.4). */
function registeredUntil({ expirationDate, status }: MicrochipSubscription): string {
  if (expirationDate) return formatRegisteredUntil(expirationDate);
  return status === 'expired' ? '—' : 'Lifetime';
}

function SubscriptionsCard({ subscriptions }: { subscriptions: MicrochipSubscription[] }) {
  const [cancelling, setCancelling] = useState<MicrochipSubscription | null>(null);

  return (
    <SectionCard title="Protection plans">
      {subscriptions.length === 0 ? (
        <EmptyState
          icon={<Shield />}
          title="No protection plans yet"
          hint="When you choose a plan for a pet, it shows here with its renewal date."
        />
      ) : (
        // Positioned, so the hidden column name stays with the table.
        <TableContainer sx={{ position: 'relative', ...stackedTable(640) }}>
          <Table aria-label="Protection plans">
            <TableHead>
              <TableRow>
                <TableCell>Pet</TableCell>
                <TableCell>Plan</TableCell>
                <TableCell>Microchip</TableCell>
                <TableCell>Status</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>Registered Until</TableCell>
                <TableCell>
                  <Typography variant="inherit" component="span" sx={visuallyHidden}>
                    Actions
                  </Typography>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {subscriptions.map((subscription) => {
                const status = statusOf(subscription);
                return (
                  <TableRow key={subscription.id}>
                    <TableCell data-label="Pet" sx={{ fontWeight: 600 }}>
                      {subscription.petName}
                    </TableCell>
                    <TableCell data-label="Plan">{subscription.planName}</TableCell>
                    <TableCell data-label="Microchip">{subscription.chipId ?? '—'}</TableCell>
                    <TableCell data-label="Status">
                      <Chip size="small" label={status.label} color={status.color} />
                    </TableCell>
                    <TableCell data-label="Registered Until" sx={{ whiteSpace: 'nowrap' }}>
                      {registeredUntil(subscription)}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {subscription.status === 'active' && !subscription.oneTime && (
                        <Button
                          size="small"
                          color="error"
                          onClick={() => setCancelling(subscription)}
                          aria-label={`Cancel renewal for ${subscription.petName}`}
                        >
                          Cancel renewal
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {cancelling && <CancelRenewalDialog subscription={cancelling} onClose={() => setCancelling(null)} />}
    </SectionCard>
  );
}

function CancelRenewalDialog({ subscription, onClose }: { subscription: MicrochipSubscription; onClose: () => void }) {
  const cancel = useCancelRenewal();
  const confirm = () =>
    cancel.mutate(subscription.id, {
      onSuccess: () => {
        toast('Renewal canceled', { variant: 'success' });
        onClose();
      },
    });

  return (
    <Dialog open onClose={onClose} aria-labelledby="cancel-renewal-title" aria-describedby="cancel-renewal-text">
      <DialogTitle id="cancel-renewal-title">Cancel renewal?</DialogTitle>
      <DialogContent>
        {cancel.isError && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {firstError(cancel.error, messages.genericError)}
          </Alert>
        )}
        <DialogContentText id="cancel-renewal-text">
          {subscription.petName}'s {subscription.planName} will not renew.{' '}
          {subscription.expirationDate
            ? `The microchip stays registered until ${formatRegisteredUntil(subscription.expirationDate)}.`
            : 'The microchip stays registered until the plan runs out.'}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep my plan</Button>
        <Button variant="contained" color="error" loading={cancel.isPending} onClick={confirm}>
          Cancel renewal
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PaymentsCard({ payments }: { payments: PaymentRecord[] }) {
  return (
    <SectionCard title="Payments">
      {payments.length === 0 ? (
        <EmptyState
          icon={<ReceiptLong />}
          title="No payments yet"
          hint="Payments for your pets' protection plans are listed here."
        />
      ) : (
        <TableContainer sx={stackedTable(560)}>
          <Table aria-label="Payments">
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell>Pet</TableCell>
                <TableCell>Plan</TableCell>
                <TableCell>Card</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {payments.map((payment) => (
                <TableRow key={payment.id}>
                  <TableCell data-label="Date" sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(payment.createdAt)}
                  </TableCell>
                  <TableCell data-label="Pet">{payment.petName ?? '—'}</TableCell>
                  <TableCell data-label="Plan">{payment.planName ?? '—'}</TableCell>
                  <TableCell data-label="Card" sx={{ whiteSpace: 'nowrap' }}>
                    {payment.cardLast4 ? `•••• ${payment.cardLast4}` : '—'}
                  </TableCell>
                  <TableCell data-label="Amount" align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <CellText detail={payment.coupon && `Coupon ${payment.coupon}`}>{formatMoney(payment.amountCents, payment.currency)}</CellText>
                  </TableCell>
                  <TableCell data-label="Status">
                    <Chip size="small" label={paymentStatus[payment.status] ?? payment.status} color={payment.status === 'paid' ? 'success' : 'default'} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SectionCard>
  );
}
