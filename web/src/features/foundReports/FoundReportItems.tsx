import { formatDateTime, paths, withId, type FoundReportSummary } from '@petreg/contract';
import { Pets } from '@mui/icons-material';
import { Avatar, Chip, List, ListItem, ListItemAvatar, ListItemButton, ListItemText, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** Found reports as a list, each opening its page; the unopened ones stand out (bold, marked New). */
export function FoundReportItems({ reports }: { reports: FoundReportSummary[] }) {
  return (
    <List aria-label="Found reports" disablePadding>
      {reports.map((report) => {
        const unread = !report.opened;
        return (
          <ListItem key={report.id} disablePadding divider>
            <ListItemButton
              component={RouterLink}
              to={withId(paths.clientFoundReports, report.id)}
              sx={{ alignItems: 'flex-start', borderRadius: 1 }}
            >
              <ListItemAvatar sx={{ mt: 0.5 }}>
                <Avatar src={report.petImageUrl ?? undefined} alt="" sx={{ bgcolor: 'primary.light' }}>
                  <Pets />
                </Avatar>
              </ListItemAvatar>
              <ListItemText
                primary={`${report.petName} found by ${report.finderName}`}
                secondary={
                  <>
                    {`${report.location} · ${formatDateTime(report.createdAt)}`}
                    {(unread || report.reunited || report.petTransferred) && (
                      <Stack component="span" direction="row" spacing={0.5} sx={{ mt: 0.5 }}>
                        {unread && <Chip component="span" size="small" color="error" label="New" />}
                        {report.reunited && <Chip component="span" size="small" color="success" variant="outlined" label="Reunited" />}
                        {report.petTransferred && <Chip component="span" size="small" variant="outlined" label="Pet transferred" />}
                      </Stack>
                    )}
                  </>
                }
                slotProps={{
                  primary: { sx: { fontWeight: unread ? 700 : 400, overflowWrap: 'anywhere' } },
                  secondary: { sx: { overflowWrap: 'anywhere' } },
                }}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
