import { paths } from '@petreg/contract';
import { CardGiftcard } from '@mui/icons-material';
import { Alert, Button, Grid } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { useSession } from '../auth/session';
import { BackupContactsCard } from '../contacts/BackupContactsCard';
import { ContactCheckBanner } from '../contacts/ContactCheckBanner';
import { FoundReportsCard } from '../foundReports/FoundReportsCard';
import { PetList } from '../pets/PetList';
import { IncomingTransfersCard } from '../transfers/IncomingTransfersCard';
import { YourVetsCard } from '../vets/YourVetsCard';

/** The owner's home: found reports, pets, vets and backup contacts (spec 2.3). */
export function DashboardPage() {
  const { user } = useSession();
  const isMember = user?.role.includes('paidcustomer') ?? false;

  return (
    <>
      <PageHeader
        title={user ? `Welcome, ${user.data.firstName || user.data.displayName}` : 'Dashboard'}
        subtitle="Everything someone needs to bring your pet home, in one place."
      />
      {user && <ContactCheckBanner user={user} />}
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
      <IncomingTransfersCard />
      <FoundReportsCard />
      <Grid container spacing={3}>
        <Grid size={12}>
          <SectionCard
            title="Your Pets"
            action={
              <Button component={RouterLink} to={paths.clientPetAdd} variant="contained" size="small">
                Add a pet
              </Button>
            }
          >
            <PetList />
          </SectionCard>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <YourVetsCard />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <BackupContactsCard />
        </Grid>
      </Grid>
    </>
  );
}
