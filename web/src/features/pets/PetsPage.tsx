import { Stack } from '@mui/material';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { ClientPetRegistration } from './ClientPetRegistration';
import { PetList } from './PetList';

/** client/pet: the owner's pets, and the registration form below them (spec 2.1). */
export function PetsPage() {
  return (
    <>
      <PageHeader title="Pets" subtitle="Open a pet to see its registration, or register another one below." />
      <Stack spacing={3}>
        <SectionCard title="Your Pets">
          <PetList />
        </SectionCard>
        <ClientPetRegistration />
      </Stack>
    </>
  );
}
