import type { MailStatus } from '@petreg/contract';
import { Chip } from '@mui/material';

const statusLooks: Record<MailStatus, { label: string; color: 'default' | 'info' | 'success' | 'warning' | 'error' }> = {
  pending: { label: 'Waiting', color: 'info' },
  sending: { label: 'Sending', color: 'info' },
  sent: { label: 'Sent', color: 'success' },
  delivered: { label: 'Delivered', color: 'success' },
  bounced: { label: 'Bounced', color: 'warning' },
  failed: { label: 'Failed', color: 'error' },
  canceled: { label: 'Canceled', color: 'default' },
};

/** Where an e-mail stands, as the mail log and the pet record show it. */
export function MailStatusChip({ status }: { status: MailStatus }) {
  const look = statusLooks[status];
  return <Chip size="small" variant="outlined" label={look.label} color={look.color} />;
}
