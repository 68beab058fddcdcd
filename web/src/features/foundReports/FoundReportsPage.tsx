import { MarkEmailUnread } from '@mui/icons-material';
import { Alert, Card, CardContent } from '@mui/material';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useFoundReports } from './api';
import { FoundReportItems } from './FoundReportItems';

/** The owner's inbox of found reports (client/found-reports), newest first. */
export function FoundReportsPage() {
  const reports = useFoundReports();
  const unread = reports.data?.unread ?? 0;
  return (
    <>
      <PageHeader
        title="Found reports"
        subtitle={unread > 0 ? `${unread} not opened yet. A finder is waiting for your answer.` : 'What people who found your pet told you.'}
      />
      {reports.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          Found reports could not be loaded. Please reload the page in a moment.
        </Alert>
      )}
      <Card>
        <CardContent>
          {!reports.data ? (
            !reports.isError && <CenteredSpinner />
          ) : reports.data.items.length === 0 ? (
            <EmptyState
              icon={<MarkEmailUnread />}
              title="No found reports"
              hint="When someone finds your pet and reports it through its tag, profile or microchip, you will read it here."
            />
          ) : (
            <FoundReportItems reports={reports.data.items} />
          )}
        </CardContent>
      </Card>
    </>
  );
}
