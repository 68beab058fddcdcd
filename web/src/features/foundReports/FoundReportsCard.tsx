import { paths } from '@petreg/contract';
import { Box, Button, Chip } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../components/SectionCard';
import { useFoundReports } from './api';
import { FoundReportItems } from './FoundReportItems';

/** The dashboard shows this many of the newest reports; the inbox page shows them all. */
const RECENT = 3;

/**
 * Found reports on the dashboard, first of all, once there is one: the newest, the unopened marked,
 * and how many wait unopened. An owner nobody wrote to sees no empty card (the menu has the inbox).
 */
export function FoundReportsCard() {
  const reports = useFoundReports();
  if (!reports.data?.items.length) return null;
  const { items, unread } = reports.data;
  return (
    <Box sx={{ mb: 3 }}>
      <SectionCard
        title="Found reports"
        action={unread > 0 ? <Chip color="error" label={`${unread} new`} /> : undefined}
        footer={
          <Button component={RouterLink} to={paths.clientFoundReports} size="small">
            {items.length > RECENT ? 'See all reports' : 'Open the inbox'}
          </Button>
        }
      >
        <FoundReportItems reports={items.slice(0, RECENT)} />
      </SectionCard>
    </Box>
  );
}
