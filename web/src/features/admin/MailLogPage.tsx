import { formatDateTime, formatPhone, loggedKindLabel, mailLogPageSize, messages, type MailLogEntry } from '@petreg/contract';
import { MarkEmailRead, Send, Visibility } from '@mui/icons-material';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { CellText } from '../../components/CellText';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { stackedTable } from '../../components/stackedTable';
import { useMailLog, useMailMessage, useResendMail } from './mailLogApi';
import { AdminListCard } from './AdminListCard';
import { MailStatusChip } from './MailStatusChip';
import { useAddressSearch } from './useAddressSearch';

const triesOf = (mail: MailLogEntry) => (mail.attempts === 1 ? '1 attempt' : `${mail.attempts} attempts`);

/** A text's number as owners write it; an e-mail's address as it is. */
const recipientOf = (mail: MailLogEntry) => (mail.queue === 'text' ? formatPhone(mail.recipient) : mail.recipient);
const kindOf = (mail: MailLogEntry) => `${mail.queue === 'text' ? 'Text: ' : ''}${loggedKindLabel(mail.queue, mail.kind)}`;
/** What the SMS provider last reported of a text's delivery ("delivered", "undelivered" …). */
const deliveryOf = (mail: MailLogEntry) => (mail.deliveryStatus ? `delivery: ${mail.deliveryStatus}` : undefined);

/** admin-send-email: the mail log, every e-mail and text the portal sent or will send; a failed one can be sent again. */
export function MailLogPage() {
  const search = useAddressSearch();
  const { query, page } = search;
  const mail = useMailLog(query, page);
  const [opened, setOpened] = useState<MailLogEntry | null>(null);

  return (
    <>
      <PageHeader title="Mail log" subtitle="Every e-mail and text the portal sent or will send: account, payment and alert e-mails, texts, and where each stands." />
      <AdminListCard
        search={search}
        searchLabel="Search by recipient"
        placeholder="Email address, phone number or part of it"
        maxLength={255}
        list={mail}
        loadingLabel="Loading e-mails"
        pageSize={mailLogPageSize}
        empty={<EmptyState icon={<MarkEmailRead />} title="No e-mails found" hint={query ? 'Try part of the address or number.' : 'E-mails and texts appear here as soon as the portal writes them.'} />}
      >
        {(items) => (
          <TableContainer sx={{ ...stackedTable(640), px: { xs: 1.5, sm: 0 }, pt: { xs: 1.5, sm: 0 }, '& th, & td': { px: 1.5 } }}>
            <Table aria-label="E-mails">
              <TableHead>
                <TableRow>
                  <TableCell>Recipient</TableCell>
                  <TableCell>Subject</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Written</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((entry) => (
                  <TableRow key={`${entry.queue}-${entry.id}`} hover>
                    <TableCell data-label="Recipient" sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                      <CellText detail={kindOf(entry)}>{recipientOf(entry)}</CellText>
                    </TableCell>
                    <TableCell data-label="Subject">{entry.subject}</TableCell>
                    <TableCell data-label="Status">
                      <CellText
                        detail={[entry.lastError ? `${triesOf(entry)}: ${entry.lastError}` : entry.attempts > 0 ? triesOf(entry) : undefined, deliveryOf(entry)]
                          .filter(Boolean)
                          .join(', ') || undefined}
                      >
                        <MailStatusChip status={entry.status} />
                      </CellText>
                    </TableCell>
                    <TableCell data-label="Written" sx={{ whiteSpace: 'nowrap' }}>
                      <CellText detail={entry.sentAt ? `sent ${formatDateTime(entry.sentAt)}` : undefined}>{formatDateTime(entry.createdAt)}</CellText>
                    </TableCell>
                    <TableCell align="right">
                      <Tooltip title="Open">
                        <IconButton
                          aria-label={`Open the ${entry.queue === 'text' ? 'text' : 'e-mail'} to ${recipientOf(entry)}: ${entry.subject}`}
                          onClick={() => setOpened(entry)}
                        >
                          <Visibility />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </AdminListCard>
      {opened && <MailDialog entry={opened} onClose={() => setOpened(null)} />}
    </>
  );
}

/** One e-mail or text as its recipient got it (plain text), with Send again while it has failed. */
function MailDialog({ entry, onClose }: { entry: MailLogEntry; onClose: () => void }) {
  const message = useMailMessage(entry.queue, entry.id);
  const resend = useResendMail();
  const shown = message.data ?? entry;

  const sendAgain = () =>
    resend.mutate(entry, {
      onSuccess: () => {
        toast(messages.mailResent, { variant: 'success' });
        onClose();
      },
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
    });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="mail-title">
      <DialogTitle id="mail-title">{shown.queue === 'text' ? `Text to ${recipientOf(shown)}` : shown.subject}</DialogTitle>
      {/* A long message scrolls: the keyboard reaches it to scroll it too. */}
      <DialogContent dividers tabIndex={0}>
        <Stack spacing={0.5} sx={{ mb: 2 }}>
          <Typography variant="body2">
            <b>To:</b> {recipientOf(shown)}
          </Typography>
          <Typography variant="body2">
            <b>Kind:</b> {kindOf(shown)}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" component="span">
              <b>Status:</b>
            </Typography>
            <MailStatusChip status={shown.status} />
            <Typography variant="body2" color="text.secondary" component="span">
              {triesOf(shown)}
              {shown.sentAt && `, sent ${formatDateTime(shown.sentAt)}`}
              {shown.deliveryStatus && `, ${deliveryOf(shown)}`}
            </Typography>
          </Stack>
          {shown.lastError && (
            <Alert severity={shown.status === 'failed' ? 'error' : 'warning'} sx={{ mt: 1 }}>
              {shown.lastError}
            </Alert>
          )}
        </Stack>
        {message.isError ? (
          <Alert severity="error">{firstError(message.error, messages.genericError)}</Alert>
        ) : !message.data ? (
          <CenteredSpinner />
        ) : (
          <Box
            component="pre"
            aria-label="Message text"
            sx={{ m: 0, p: 2, bgcolor: 'grey.50', border: 1, borderColor: 'divider', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', fontSize: '0.9rem' }}
          >
            {message.data.text}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {shown.status === 'failed' && (
          <Button variant="contained" startIcon={<Send />} onClick={sendAgain} disabled={resend.isPending}>
            Send again
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
