import { formatDate, formatMoney, messages, paths } from '@petreg/contract';
import { Business, ForwardToInbox, ManageSearch, ReceiptLong } from '@mui/icons-material';
import { Alert, Button, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../app/api';
import { CellText } from '../../components/CellText';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { stackedTable } from '../../components/stackedTable';
import { toast } from '../../app/toast';
import { useMarkRefunded, usePaymentsToRefund } from './api';

const actions = [
  { label: 'Search / Edit Records', to: paths.adminSearch, icon: <ManageSearch /> },
  { label: 'View Onboarded Sites', to: paths.adminSites, icon: <Business /> },
  { label: 'Send an Email', to: paths.adminSendEmail, icon: <ForwardToInbox /> },
];

export function AdminDashboardPage() {
  return (
    <>
      <PageHeader title="Admin Dashboard" subtitle="Find and correct owner and pet records, and reach onboarded sites." />
      <Stack spacing={3}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          {actions.map(({ label, to, icon }) => (
            <Button
              key={to}
              component={RouterLink}
              to={to}
              variant="contained"
              size="large"
              startIcon={icon}
              sx={{ py: 3, flex: 1, fontSize: '1.05rem' }}
            >
              {label}
            </Button>
          ))}
        </Stack>
        <PaymentsToRefundCard />
      </Stack>
    </>
  );
}

/** Card payments taken but not applied to a pet (its chip or plan had changed): refund them at the card provider. */
function PaymentsToRefundCard() {
  const refunds = usePaymentsToRefund();
  const markRefunded = useMarkRefunded();
  const onRefunded = (paymentId: number) =>
    markRefunded.mutate(paymentId, {
      onSuccess: () => toast(messages.recordSaved, { variant: 'success' }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
    });
  return (
    <SectionCard title="Payments to refund">
      {refunds.isError ? (
        <Alert severity="error">{firstError(refunds.error, messages.genericError)}</Alert>
      ) : !refunds.data ? (
        <CenteredSpinner />
      ) : refunds.data.length === 0 ? (
        <EmptyState icon={<ReceiptLong />} title="No payments to refund" hint="A payment that could not be applied to a pet's protection shows here." />
      ) : (
        <TableContainer sx={stackedTable(860)}>
          <Table aria-label="Payments to refund">
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell>Owner</TableCell>
                <TableCell>Pet</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell>Payment id</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {refunds.data.map((payment) => (
                <TableRow key={payment.id}>
                  <TableCell data-label="Date" sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(payment.createdAt)}
                  </TableCell>
                  <TableCell data-label="Owner">
                    <CellText detail={payment.ownerEmail}>{payment.ownerName}</CellText>
                  </TableCell>
                  <TableCell data-label="Pet">
                    <CellText detail={payment.reason}>{payment.petName ?? '—'}</CellText>
                  </TableCell>
                  <TableCell data-label="Amount" align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(payment.amountCents, payment.currency)}
                  </TableCell>
                  <TableCell data-label="Payment id" sx={{ overflowWrap: 'anywhere' }}>
                    {payment.providerPaymentId ?? '—'}
                  </TableCell>
                  <TableCell align="right">
                    {/* Pressed once the card provider has returned the money, so nobody refunds it again. */}
                    <Button
                      size="small"
                      loading={markRefunded.isPending && markRefunded.variables === payment.id}
                      onClick={() => onRefunded(payment.id)}
                    >
                      Mark refunded
                    </Button>
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
