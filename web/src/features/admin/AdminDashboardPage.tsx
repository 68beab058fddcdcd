import { paths } from '@petreg/contract';
import { Business, ForwardToInbox, ManageSearch } from '@mui/icons-material';
import { Button, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';

const actions = [
  { label: 'Search / Edit Records', to: paths.adminSearch, icon: <ManageSearch /> },
  { label: 'View Onboarded Sites', to: paths.adminSites, icon: <Business /> },
  { label: 'Send an Email', to: paths.adminSendEmail, icon: <ForwardToInbox /> },
];

export function AdminDashboardPage() {
  return (
    <>
      <PageHeader title="Admin Dashboard" subtitle="Find and correct owner and pet records, and reach onboarded sites." />
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
    </>
  );
}
