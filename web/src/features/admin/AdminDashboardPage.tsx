import { formatDate, formatMoney, messages, paths } from '@petreg/contract';
import { Business, ForwardToInbox, ManageSearch, ReceiptLong } from '@mui/icons-material';
import { Alert, Button, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { usePaymentsToRefund } from './api';

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
  return (
    <SectionCard title="Payments to refund">
      {refunds.isError ? (
        <Alert severity="error">{firstError(refunds.error, messages.genericError)}</Alert>
      ) : !refunds.data ? (
        <CenteredSpinner />
      ) : refunds.data.length === 0 ? (
        <EmptyState icon={<ReceiptLong />} title="No payments to refund" hint="A payment that could not be applied to a pet's protection shows here." />
      ) : (
        <TableContainer>
          <Table aria-label="Payments to refund" sx={{ minWidth: 640, '& td, & th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell>Owner</TableCell>
                <TableCell>Pet</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell>Payment id</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {refunds.data.map((payment) => (
                <TableRow key={payment.id}>
                  <TableCell>{formatDate(payment.createdAt)}</TableCell>
                  <TableCell>
                    {payment.ownerName}
                    <Typography variant="body2" color="text.secondary">
                      {payment.ownerEmail}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {payment.petName ?? '—'}
                    {payment.reason && (
                      <Typography variant="body2" color="text.secondary">
                        {payment.reason}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right">{formatMoney(payment.amountCents, payment.currency)}</TableCell>
                  <TableCell>{payment.providerPaymentId ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SectionCard>
  );
}
