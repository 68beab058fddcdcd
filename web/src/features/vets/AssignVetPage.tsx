import { messages, paths, ui, withId, type Pet, type SiteWithDetail } from '@petreg/contract';
import { CheckCircle, LocalHospital, Pets, Search } from '@mui/icons-material';
import { Avatar, Box, Button, Card, CardContent, Checkbox, Link, Stack, Typography } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { allErrors } from '../../app/api';
import { recordId } from '../../app/params';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { useUserPets } from '../pets/api';
import { petImage, petTilePath } from '../pets/petDisplay';
import { useAddVetToPets, useVet, useVetPetLinks } from './api';
import { GoBackLink } from './GoBackLink';
import { siteAddressLines, vetPicture } from './vetDisplay';
import { VetAddress } from './VetDetail';
import { VetAvatar } from './VetAvatar';

/**
 * client/add-vet-on-pet/{siteId}: the vet chosen in the search is assigned to the owner's active pets
 * (spec 2.5). `?petId=` comes from a search started on a pet, which is then chosen already.
 */
export function AssignVetPage() {
  const param = useParams().id;
  const siteId = recordId(param);
  if (param === undefined) return <ChooseVetFirst />;
  if (siteId === null) return <Navigate to={paths.notFound} replace />;
  return <AssignVet key={siteId} siteId={siteId} />;
}

function ChooseVetFirst() {
  return (
    <>
      <PageHeader title="Add a vet to your pets" />
      <Card>
        <CardContent>
          <EmptyState
            icon={<LocalHospital />}
            title="Choose a vet first"
            hint="Search for your veterinarian by practice name, address or ZIP code, then add it to your pets."
          />
          <Box sx={{ textAlign: 'center', pb: 2 }}>
            <Button component={RouterLink} to={paths.clientAddVet} variant="contained" startIcon={<Search />}>
              Find a vet
            </Button>
          </Box>
        </CardContent>
      </Card>
    </>
  );
}

function AssignVet({ siteId }: { siteId: number }) {
  const fromPetId = recordId(useSearchParams()[0].get('petId'));
  const vet = useVet(siteId);
  const links = useVetPetLinks(siteId);
  const pets = useUserPets();

  if (vet.isError) {
    return (
      <>
        <ErrorBanner key={vet.errorUpdatedAt} durationMs={ui.petErrorMs}>
          {allErrors(vet.error, messages.genericError)}
        </ErrorBanner>
        <GoBackLink fallback={paths.clientAddVet}>Back to the vet search</GoBackLink>
      </>
    );
  }
  if (!vet.data || !links.data || !pets.data) return <CenteredSpinner />;
  return (
    <AssignVetForm vet={vet.data} pets={pets.data} linked={new Set(links.data.map((link) => link.petId))} fromPetId={fromPetId} />
  );
}

interface AssignVetFormProps {
  vet: SiteWithDetail;
  pets: Pet[];
  /** Pets this vet already cares for. */
  linked: Set<number>;
  fromPetId: number | null;
}

function AssignVetForm({ vet, pets, linked, fromPetId }: AssignVetFormProps) {
  const navigate = useNavigate();
  const save = useAddVetToPets();
  // Only active pets can have a vet (the server refuses the others).
  const choosable = (pet: Pet) => pet.isActive && !linked.has(pet.id);
  const [chosen, setChosen] = useState<number[]>(() =>
    pets.filter((pet) => pet.id === fromPetId && choosable(pet)).map((pet) => pet.id),
  );
  const searchPath = fromPetId ? withId(paths.clientAddVet, fromPetId) : paths.clientAddVet;

  const toggle = (petId: number, on: boolean) => setChosen((ids) => (on ? [...ids, petId] : ids.filter((id) => id !== petId)));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(
      { siteId: vet.id, petIds: chosen },
      {
        onSuccess: () => {
          toast(messages.sitesAddedToPet, { variant: 'success' });
          void navigate(fromPetId ? withId(paths.clientPetUpdate, fromPetId) : paths.client);
        },
      },
    );
  };

  return (
    <>
      <Box sx={{ mb: 2 }}>
        <GoBackLink fallback={searchPath}>Back to the vet search</GoBackLink>
      </Box>
      <PageHeader title="Add your vet to your pets" subtitle="Choose the pets this vet cares for." />
      <Stack spacing={3} sx={{ maxWidth: 720 }}>
        <Card component="section" aria-label="Chosen vet">
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <VetAvatar name={vet.name} picture={vetPicture(vet)} sx={{ width: 64, height: 64, fontSize: '1.4rem' }} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="h3" component="h2" sx={{ overflowWrap: 'anywhere' }}>
                  {vet.name}
                </Typography>
                <Typography variant="body2" color="text.secondary" component="div">
                  <VetAddress lines={siteAddressLines(vet)} />
                </Typography>
              </Box>
            </Stack>
          </CardContent>
        </Card>

        <SectionCard title="Your pets" avatar={<Pets color="primary" />}>
          {pets.length === 0 ? (
            <>
              <EmptyState icon={<Pets />} title="No pets yet" hint="Add your pet first; then you can link its vet." />
              <Box sx={{ textAlign: 'center' }}>
                <Button component={RouterLink} to={paths.clientPetAdd} variant="contained">
                  Add a pet
                </Button>
              </Box>
            </>
          ) : (
            <Box component="form" onSubmit={submit} noValidate aria-label={`Pets ${vet.name} cares for`}>
              {save.isError && (
                <ErrorBanner key={save.submittedAt} durationMs={ui.petErrorMs}>
                  {allErrors(save.error, messages.genericError)}
                </ErrorBanner>
              )}
              <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {pets.map((pet) => (
                  <PetChoice
                    key={pet.id}
                    pet={pet}
                    linked={linked.has(pet.id)}
                    checked={linked.has(pet.id) || chosen.includes(pet.id)}
                    disabled={!choosable(pet) || save.isPending}
                    onChange={(on) => toggle(pet.id, on)}
                  />
                ))}
              </Box>
              <Stack direction="row" spacing={1.5} sx={{ mt: 2, justifyContent: 'flex-end' }}>
                <Button component={RouterLink} to={searchPath} disabled={save.isPending}>
                  Cancel
                </Button>
                <Button type="submit" variant="contained" loading={save.isPending} disabled={chosen.length === 0}>
                  Save
                </Button>
              </Stack>
            </Box>
          )}
        </SectionCard>
      </Stack>
    </>
  );
}

interface PetChoiceProps {
  pet: Pet;
  linked: boolean;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}

/** A pet of the checklist, with why it cannot be chosen when it cannot. */
function PetChoice({ pet, linked, checked, disabled, onChange }: PetChoiceProps) {
  const inputId = useId();
  const hintId = useId();
  const hint = linked ? (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'success.main' }}>
      <CheckCircle sx={{ fontSize: 16 }} aria-hidden />
      <span>Already linked</span>
    </Stack>
  ) : !pet.isActive ? (
    <>
      Complete the registration to add a vet.{' '}
      <Link component={RouterLink} to={petTilePath(pet)}>
        Complete registration
      </Link>
    </>
  ) : null;

  return (
    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Checkbox
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        slotProps={{ input: { id: inputId, 'aria-describedby': hint ? hintId : undefined } }}
      />
      <Avatar src={petImage(pet)} alt="" variant="rounded" sx={{ width: 44, height: 44 }} />
      <Box sx={{ minWidth: 0 }}>
        <Typography
          component="label"
          htmlFor={inputId}
          sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere', color: pet.isActive ? 'text.primary' : 'text.secondary' }}
        >
          {pet.name}
        </Typography>
        {hint && (
          <Typography id={hintId} variant="body2" color="text.secondary" component="div">
            {hint}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
