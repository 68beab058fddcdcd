import { paths } from '@petreg/contract';
import { CardGiftcard, ContactPhone, LocalHospital, Pets } from '@mui/icons-material';
import { Alert, Button, Card, CardContent, CardHeader, Grid, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';

/** The owner's home: pets, vets and backup contacts (spec 2.3). The lists arrive with their own features. */
export function DashboardPage() {
  const { user } = useSession();
  const isMember = user?.role.includes('paidcustomer') ?? false;

  return (
    <>
      <PageHeader
        title={user ? `Welcome, ${user.data.firstName || user.data.displayName}` : 'Dashboard'}
        subtitle="Everything someone needs to bring your pet home, in one place."
      />
      {isMember && (
        <Alert
          icon={<CardGiftcard />}
          severity="success"
          sx={{ mb: 3, alignItems: 'center' }}
          action={
            <Button component={RouterLink} to={paths.clientMemberPerks} color="inherit" variant="outlined" size="small">
              See Member Perks
            </Button>
          }
        >
          Thank you for being a member. Your plan includes partner discounts on vet care, pet meds and more.
        </Alert>
      )}
      <Grid container spacing={3}>
        <DashboardCard
          title="Your Pets"
          action={
            <Button component={RouterLink} to={paths.clientPetAdd} variant="contained" size="small">
              Add a pet
            </Button>
          }
          icon={<Pets />}
          empty="No pets yet"
          hint="Add your pet and its microchip so a finder can reach you."
        />
        <DashboardCard
          title="Your Vets"
          action={
            <Button component={RouterLink} to={paths.clientAddVet} variant="contained" size="small">
              Add a vet
            </Button>
          }
          icon={<LocalHospital />}
          empty="No vets yet"
          hint="Link your veterinarian so their number is at hand in an emergency."
        />
        <DashboardCard
          title="Backup Contacts"
          // Backup contacts arrive with their own increment; the button is wired then.
          action={
            <Button variant="contained" size="small" disabled>
              Add a contact
            </Button>
          }
          icon={<ContactPhone />}
          empty="No backup contacts yet"
          hint="Someone we can call when we cannot reach you."
        />
      </Grid>
    </>
  );
}

interface DashboardCardProps {
  title: string;
  action: ReactNode;
  icon: ReactNode;
  empty: string;
  hint: string;
}

function DashboardCard({ title, action, icon, empty, hint }: DashboardCardProps) {
  return (
    <Grid size={{ xs: 12, md: 6, xl: 4 }}>
      <Card component="section" aria-label={title} sx={{ height: '100%' }}>
        <CardHeader
          title={title}
          slotProps={{ title: { variant: 'h3', component: 'h2' } }}
          action={action}
          sx={{ '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
        />
        <CardContent>
          <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 3, color: 'text.secondary' }}>
            <Stack sx={{ color: 'primary.light', '& svg': { fontSize: 40 } }}>{icon}</Stack>
            <Typography variant="subtitle1" color="text.primary">
              {empty}
            </Typography>
            <Typography variant="body2">{hint}</Typography>
          </Stack>
        </CardContent>
      </Card>
    </Grid>
  );
}
