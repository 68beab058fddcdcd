import { messages } from '@petreg/contract';
import { GppGood } from '@mui/icons-material';
import { Alert, AlertTitle, Grid, Stack, Typography } from '@mui/material';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { visuallyHidden } from '../../components/visuallyHidden';
import { useCurrentUser } from './api';
import { PasswordCard } from './PasswordCard';
import { ProfileCard } from './ProfileCard';
import { YourDataCard } from './YourDataCard';

export function ProfilePage() {
  const currentUser = useCurrentUser();

  // The cards carry the page's headings (spec 2.1), so there is no page title above them; screen
  // readers get one, named as the menu names the page.
  return (
    <Grid container spacing={3} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="h1" sx={visuallyHidden}>
        Edit your profile
      </Typography>
      {currentUser.data?.data.recordProtected && (
        <Grid size={12}>
          <Alert severity="info" icon={<GppGood />}>
            <AlertTitle>Your record is protected</AlertTitle>
            Our support team hides your name, place, photo and contact details from everyone who finds or looks up your pets,
            whatever you choose to share. Finders reach you through our message form, and we pass their messages on to you. To
            change this, call our support line.
          </Alert>
        </Grid>
      )}
      <Grid size={{ xs: 12, xl: 7 }}>
        {currentUser.data ? (
          <ProfileCard key={currentUser.data.id} user={currentUser.data} />
        ) : currentUser.isError ? (
          <Alert severity="error">{firstError(currentUser.error, messages.genericError)}</Alert>
        ) : (
          <CenteredSpinner />
        )}
      </Grid>
      <Grid size={{ xs: 12, xl: 5 }}>
        <Stack spacing={3}>
          <PasswordCard />
          {currentUser.data && <YourDataCard user={currentUser.data} />}
        </Stack>
      </Grid>
    </Grid>
  );
}
