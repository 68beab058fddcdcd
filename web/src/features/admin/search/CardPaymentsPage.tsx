import { formatDate, messages, paths, ui, withId } from '@petreg/contract';
import { ArrowBack, CreditCardOff } from '@mui/icons-material';
import { Alert, Button, Card, Chip, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink, useParams } from 'react-router';
import { firstError } from '../../../app/api';
import { CenteredSpinner } from '../../../components/CenteredSpinner';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { stackedTable } from '../../../components/stackedTable';
import { useCardPayments } from './api';

const statusNames: Record<string, string> = { paid: 'Paid', refund_due: 'Refund due' };

/** admin/stripe-search/:searchkey (spec 2.7): card payments whose card ends in the searched 4 digits. */
export function CardPaymentsPage() {
  const key = useParams().searchkey ?? '';
  const payments = useCardPayments(key);

  return (
    <>
      <PageHeader title="Card payments" subtitle={`Payments with a card ending in ${key}.`} />
      <Button component={RouterLink} to={paths.adminSearch} startIcon={<ArrowBack />} sx={{ mb: 2 }}>
        New search
      </Button>
      <Card>
        {payments.isError ? (
          <Alert severity="error">{firstError(payments.error, messages.genericError)}</Alert>
        ) : !payments.data ? (
          <CenteredSpinner />
        ) : payments.data.length === 0 ? (
          <EmptyState icon={<CreditCardOff />} title={messages.searchNoRecords} hint="No card payment was made with a card ending in these digits." />
        ) : (
          <TableContainer
            sx={{ ...stackedTable(640), maxHeight: ui.searchTableMaxHeight, px: { xs: 1.5, sm: 0 }, pt: { xs: 1.5, sm: 0 }, '& th, & td': { px: 1.5 } }}
          >
            <Table stickyHeader aria-label="Card payments found">
              <TableHead>
                <TableRow>
                  <TableCell>Card Last 4 Digits</TableCell>
                  <TableCell>Created</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Email</TableCell>
                  <TableCell>Pet and product</TableCell>
                  <TableCell align="right">Amount</TableCell>
                  <TableCell>Currency</TableCell>
                  <TableCell>Payment Status</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {payments.data.map((payment, index) => (
                  <TableRow key={payment.paymentIntentId ?? index}>
                    <TableCell data-label="Card Last 4 Digits" sx={{ whiteSpace: 'nowrap' }}>
                      •••• {payment.last4}
                    </TableCell>
                    <TableCell data-label="Created" sx={{ whiteSpace: 'nowrap' }}>
                      {formatDate(payment.created)}
                    </TableCell>
                    <TableCell data-label="Name">{payment.name}</TableCell>
                    <TableCell data-label="Email" sx={{ overflowWrap: 'anywhere' }}>
                      {payment.email}
                    </TableCell>
                    <TableCell data-label="Pet and product" sx={{ overflowWrap: 'break-word', minWidth: { sm: 112 } }}>
                      {payment.petId !== null ? (
                        <Link component={RouterLink} to={withId(paths.adminPet, payment.petId)}>
                          {payment.petName}
                        </Link>
                      ) : (
                        '—'
                      )}
                      {payment.product && (
                        <Typography variant="body2" color="text.secondary">
                          {payment.product}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell data-label="Amount" align="right">
                      {(payment.amount / 100).toFixed(2)}
                    </TableCell>
                    <TableCell data-label="Currency">{payment.currency.toUpperCase()}</TableCell>
                    <TableCell data-label="Payment Status">
                      <Chip
                        size="small"
                        variant="outlined"
                        label={statusNames[payment.status] ?? payment.status}
                        color={payment.status === 'paid' ? 'success' : 'warning'}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Card>
    </>
  );
}
