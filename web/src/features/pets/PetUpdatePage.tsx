import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatPhone,
  formatPlace,
  messages,
  paths,
  petProfileSchema,
  ui,
  withId,
  type Pet,
  type PetProfile,
  type PetProfileInput,
  type User,
} from '@petreg/contract';
import { Edit, Person, Verified, WarningAmber } from '@mui/icons-material';
import {
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Grid,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { allErrors, firstError } from '../../app/api';
import { recordId } from '../../app/params';
import { openBillingDashboard } from '../../app/billing';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { FormTextField } from '../../components/FormTextField';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useSession } from '../auth/session';
import { PetShortLink } from '../public/PetShortLink';
import { PetTransferCard } from '../transfers/PetTransferCard';
import { PetPrintCard } from './PetPrintCard';
import { PetVetsCard } from '../vets/PetVetsCard';
import { usePet, useUpdatePet, useUpgradeToLifetime } from './api';
import { coverage, petImage, isRegistered, registrationStatus } from './petDisplay';
import { PetFields } from './PetFields';
import { petProfileValues } from './petFormValues';
import { EditActions } from '../../components/EditActions';
import { SectionCard } from '../../components/SectionCard';

/** client/pet/update/{id}: the pet's profile, its registration, its owner and vet (spec 2.4). */
export function PetUpdatePage() {
  const id = recordId(useParams().id);
  if (id === null) return <Navigate to={paths.notFound} replace />;
  return <PetUpdate key={id} id={id} />;
}

function PetUpdate({ id }: { id: number }) {
  const pet = usePet(id);
  const { user } = useSession();
  // Lifted here so the header's Add a microchip can open the profile card for editing.
  const [editing, setEditing] = useState<false | 'edit' | 'addChip'>(false);

  if (pet.isError) {
    return (
      <>
        <ErrorBanner key={pet.errorUpdatedAt} durationMs={ui.petErrorMs}>
          {allErrors(pet.error, messages.genericError)}
        </ErrorBanner>
        <Link component={RouterLink} to={paths.client}>
          Back to your dashboard
        </Link>
      </>
    );
  }
  if (!pet.data || !user) return <CenteredSpinner />;

  return (
    <Grid container spacing={3} sx={{ alignItems: 'flex-start' }}>
      <Grid size={12}>
        <PetHeader pet={pet.data} user={user} onAddChip={() => setEditing('addChip')} />
      </Grid>
      <Grid size={{ xs: 12, lg: 8 }}>
        <PetProfileCard pet={pet.data} editing={editing} onEditingChange={setEditing} />
      </Grid>
      <Grid size={{ xs: 12, lg: 4 }}>
        <Stack spacing={3}>
          <OwnerCard user={user} />
          <PetVetsCard pet={pet.data} />
          <PetShortLink pet={pet.data} />
          <PetTransferCard petId={pet.data.id} petName={pet.data.name} />
          <PetPrintCard pet={pet.data} />
        </Stack>
      </Grid>
    </Grid>
  );
}

/**
 * Photo, name and registration state, with what the pet's plan lacks: a chip to register, a plan to
 * choose, or the upgrade from yearly to lifetime.
 */
function PetHeader({ pet, user, onAddChip }: { pet: Pet; user: User; onAddChip: () => void }) {
  const upgrade = useUpgradeToLifetime();
  const status = registrationStatus(pet);
  const registered = isRegistered(pet);
  const covered = coverage(pet);
  const chip = pet.chips[0];


  return (
    <Box>
      {upgrade.isError && (
        <ErrorBanner key={upgrade.submittedAt} durationMs={ui.checkoutErrorMs}>
          {firstError(upgrade.error, messages.genericError)}
        </ErrorBanner>
      )}
      <Stack direction={{ xs: 'column', xl: 'row' }} spacing={2} sx={{ alignItems: { xl: 'center' } }}>
        <Stack direction="row" spacing={2.5} sx={{ flexGrow: 1, minWidth: 0, alignItems: 'center' }}>
          <Avatar
            src={petImage(pet)}
            alt=""
            variant="rounded"
            sx={{ width: { xs: 64, sm: 88 }, height: { xs: 64, sm: 88 }, borderRadius: 3 }}
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
              {pet.name}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <Chip
                icon={registered ? <Verified /> : <WarningAmber />}
                color={registered ? 'success' : 'warning'}
                label={status}
                aria-label={`Registration status: ${status}`}
                // The registered-until date is the point of the chip: never cut it short.
                sx={{ maxWidth: 'none', '& .MuiChip-label': { overflow: 'visible' } }}
              />
              {chip && (
                <Typography variant="body2" color="text.secondary">
                  Microchip {chip.chipId}
                </Typography>
              )}
            </Stack>
          </Box>
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexShrink: 0 }}>
          {user.data.haveSubscriptions && (
            <Button variant="text" onClick={() => void openBillingDashboard(user.id)}>
              Manage Subscriptions
            </Button>
          )}
          {!chip && (
            <Button variant="contained" color="secondary" onClick={onAddChip}>
              Add a microchip
            </Button>
          )}
          {chip && covered.plan === 'none' && (
            // Not registered: every plan is open to it on the plan page.
            <Button component={RouterLink} to={withId(paths.clientPetCheckout, pet.id)} variant="contained" color="secondary">
              Choose a plan
            </Button>
          )}
          {/* Spec 2.4: offered whenever the chip is not lifetime; beside Choose a plan it is the lesser choice. */}
          {chip && !chip.oneTime && (
            <Button
              variant={covered.plan === 'none' ? 'outlined' : 'contained'}
              color="secondary"
              loading={upgrade.isPending}
              onClick={() => upgrade.mutate(pet.id)}
            >
              Upgrade to Lifetime
            </Button>
          )}
        </Stack>
      </Stack>
    </Box>
  );
}

interface PetProfileCardProps {
  pet: Pet;
  /** 'addChip': opened from Add a microchip, so the chip field takes the focus. */
  editing: false | 'edit' | 'addChip';
  onEditingChange: (editing: false | 'edit') => void;
}

/** The pet's details: read-only until Edit; Cancel puts back what is saved (spec 2.4). */
function PetProfileCard({ pet, editing, onEditingChange }: PetProfileCardProps) {
  const navigate = useNavigate();
  const update = useUpdatePet();
  const form = useForm<PetProfileInput, unknown, PetProfile>({
    resolver: zodResolver(petProfileSchema),
    defaultValues: petProfileValues(pet),
  });
  const { setFocus } = form;

  useEffect(() => {
    if (editing !== 'addChip') return;
    // After the fields are enabled; focusing scrolls the field into view.
    setFocus('chipId');
    onEditingChange('edit');
  }, [editing, setFocus, onEditingChange]);

  const cancel = () => {
    form.reset(petProfileValues(pet));
    update.reset();
    onEditingChange(false);
  };

  const onSubmit = form.handleSubmit((profile) =>
    update.mutate(profile, {
      onSuccess: () => {
        toast(messages.recordSaved, { variant: 'success' });
        void navigate(paths.client);
      },
    }),
  );

  return (
    <Card component="section" aria-labelledby="pet-profile-title">
      <CardHeader
        title="Pet Profile"
        slotProps={{ title: { variant: 'h3', component: 'h2', id: 'pet-profile-title' } }}
        action={
          !editing && (
            <Button startIcon={<Edit />} onClick={() => onEditingChange('edit')}>
              Edit
            </Button>
          )
        }
      />
      <FormProvider {...form}>
        <Box component="form" onSubmit={onSubmit} noValidate>
          <CardContent>
            {update.isError && (
              <ErrorBanner key={update.submittedAt} durationMs={ui.petErrorMs}>
                {allErrors(update.error, messages.genericError)}
              </ErrorBanner>
            )}
            <PetFields disabled={!editing || update.isPending} storedImageUrl={pet.imageUrl} />
            <FormTextField
              control={form.control}
              name="verificationQuestion"
              label="Question for a finder (optional)"
              placeholder="What colour is the collar?"
              fullWidth
              disabled={!editing || update.isPending}
              helperText="Ask about something your pet's public profile does not show. A finder answers it when reporting your pet; only you see the answer."
              sx={{ mt: 3 }}
            />
          </CardContent>
          {editing && <EditActions onCancel={cancel} saving={update.isPending} />}
        </Box>
      </FormProvider>
    </Card>
  );
}

/** Who a finder reaches: the owner's details, edited on the profile page. */
function OwnerCard({ user }: { user: User }) {
  const { firstName, lastName, email, phoneNumber, address1, address2, city, state, zipcode } = user.data;
  const place = formatPlace({ city, state: state?.abbreviation, zip: zipcode });
  const address = [address1, address2, place].filter(Boolean);

  return (
    <SectionCard
      title="Owner Information"
      avatar={<Person color="primary" />}
      footer={
        <Button component={RouterLink} to={paths.clientProfile} size="small" startIcon={<Edit />}>
          Edit your profile
        </Button>
      }
    >
      <Stack spacing={0.5}>
        <Typography sx={{ fontWeight: 600 }}>{`${firstName} ${lastName}`.trim()}</Typography>
        {/* A long e-mail breaks inside the narrow card instead of running out of it. */}
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {email}
        </Typography>
        {phoneNumber && <Typography variant="body2">{formatPhone(phoneNumber)}</Typography>}
        {address.length > 0 ? (
          <Typography variant="body2" component="address" sx={{ fontStyle: 'normal' }}>
            {address.map((line) => (
              <span key={line} style={{ display: 'block' }}>
                {line}
              </span>
            ))}
          </Typography>
        ) : (
          <Typography variant="body2" color="text.secondary">
            No address yet
          </Typography>
        )}
      </Stack>
    </SectionCard>
  );
}
