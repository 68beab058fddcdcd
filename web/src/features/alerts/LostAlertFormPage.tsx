import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatMoney,
  lastSeenZip,
  limits,
  lostAlertFormSchema,
  messages,
  paths,
  ui,
  type LostAlertForm,
  type LostAlertFormInput,
  type Pet,
} from '@petreg/contract';
import { CampaignOutlined, MarkEmailRead, Place } from '@mui/icons-material';
import { Alert, AlertTitle, Box, Button, Card, CardContent, Grid, Link, Stack, Typography } from '@mui/material';
import { FormProvider, useForm, useFormContext, useWatch, type DefaultValues } from 'react-hook-form';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { allErrors, ApiError, firstError } from '../../app/api';
import { useFollowLocation } from '../../app/followLocation';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { ErrorBanner } from '../../components/ErrorBanner';
import { FormCheckbox } from '../../components/FormCheckbox';
import { FormTextField } from '../../components/FormTextField';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';
import { usePet } from '../pets/api';
import {
  FormSection,
  PetBreedsField,
  PetDobField,
  PetNameField,
  PetPhotoField,
  PetSexField,
  PetSpeciesField,
} from '../pets/PetFields';
import { petProfileValues } from '../pets/petFormValues';
import { useAlertPrices, useSendAlert, useZipPlace } from './api';
import { fromLocalDateTime, nowAsLocalDateTime, toLocalDateTime } from './localDateTime';

/** client/add-alert/{id}: the lost pet alert form (spec 2.5, 5). */
export function LostAlertFormPage() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <Navigate to={paths.notFound} replace />;
  return <LostAlert key={id} id={id} />;
}

function LostAlert({ id }: { id: number }) {
  const pet = usePet(id);
  const { user } = useSession();

  if (pet.isError) {
    return (
      <>
        <ErrorBanner key={pet.errorUpdatedAt} durationMs={ui.petErrorMs}>
          {allErrors(pet.error, messages.genericError)}
        </ErrorBanner>
        <Link component={RouterLink} to={paths.clientAddAlert}>
          Back to Lost Pet Alerts
        </Link>
      </>
    );
  }
  if (!pet.data || !user) return <CenteredSpinner />;

  return (
    <>
      <PageHeader
        title="Lost Pet Alert"
        subtitle={`We e-mail the vets, shelters and rescues within ${limits.alertRadiusMiles} miles of where ${pet.data.name} was last seen.`}
      />
      {pet.data.status === 'paid' ? <AlreadySent pet={pet.data} /> : <LostAlertCard pet={pet.data} homeZip={user.data.zipcode} />}
    </>
  );
}

/** A pet has one alert out at a time (spec 4): a second one waits until the pet is marked found. */
function AlreadySent({ pet }: { pet: Pet }) {
  return (
    <Alert
      severity="info"
      action={
        <Button component={RouterLink} to={paths.clientAddAlert} color="inherit" size="small">
          View Analytics
        </Button>
      }
    >
      An alert about {pet.name} is already out. Follow it in the analytics, and mark {pet.name} as found once home.
    </Alert>
  );
}

function formValues(pet: Pet): DefaultValues<LostAlertFormInput> {
  // A pet found after an earlier alert starts a new one from scratch.
  const current = pet.status !== 'found';
  return {
    ...petProfileValues(pet),
    missingDate: (current && pet.missingDate) || '',
    homeZipIsLastSeen: false,
    zipCode: (current && pet.zipCode) || '',
    incidentDescription: (current && pet.incidentDescription) || '',
  };
}

/** Server answers that belong to the last-seen ZIP rather than to the banner. */
const zipMessages: string[] = [messages.zipUnknown, messages.zipcodeRequired];

function LostAlertCard({ pet, homeZip }: { pet: Pet; homeZip: string | null }) {
  const send = useSendAlert();
  const follow = useFollowLocation();
  const form = useForm<LostAlertFormInput, unknown, LostAlertForm>({
    resolver: zodResolver(lostAlertFormSchema),
    defaultValues: formValues(pet),
  });
  const prices = useAlertPrices();

  const onSubmit = form.handleSubmit(
    (values) =>
      send.mutate(
        { form: values, homeZip },
        {
          onSuccess: ({ location }) => follow(location),
          onError: (error) => {
            const zipMessage = error instanceof ApiError ? error.errors.find((m) => zipMessages.includes(m)) : undefined;
            if (zipMessage) form.setError('zipCode', { type: 'server', message: zipMessage }, { shouldFocus: true });
          },
        },
      ),
    // Spec 5: the photo is what a finder recognises; a send without one says so out loud.
    (errors) => {
      if (errors.image) toast(messages.petImageRequired, { variant: 'error' });
    },
  );
  const bannerError =
    send.isError && !(send.error instanceof ApiError && send.error.errors.some((m) => zipMessages.includes(m))) ? send.error : null;

  return (
    <Grid container spacing={3} sx={{ alignItems: 'flex-start' }}>
      {/* Beside the form on wide screens; above it otherwise, so the cost is known before the form is filled. */}
      <Grid size={{ xs: 12, xl: 4 }} sx={{ order: { xl: 1 } }}>
        <HowItWorks
          price={prices.data && (prices.data.freePetIds.includes(pet.id) ? 'free' : formatMoney(prices.data.priceCents, prices.data.currency))}
          petName={pet.name}
        />
      </Grid>
      <Grid size={{ xs: 12, xl: 8 }}>
        <Card component="section" aria-label={`Lost pet alert for ${pet.name}`}>
          <FormProvider {...form}>
            <Box component="form" onSubmit={onSubmit} noValidate>
              <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
                {bannerError && (
                  <ErrorBanner key={send.submittedAt} durationMs={ui.petErrorMs}>
                    {allErrors(bannerError, messages.genericError)}
                  </ErrorBanner>
                )}
                <Grid container spacing={2}>
                  <FormSection title="Your pet" />
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <PetNameField />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <PetSpeciesField />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <PetBreedsField required />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <PetSexField required />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <PetDobField required />
                  </Grid>
                  <Grid size={12}>
                    <PetPhotoField storedImageUrl={pet.imageUrl} />
                  </Grid>
                  <LastSeenFields petName={pet.name} homeZip={homeZip} />
                </Grid>
              </CardContent>
              <Stack
                direction={{ xs: 'column-reverse', sm: 'row' }}
                spacing={1.5}
                sx={{ justifyContent: 'flex-end', px: { xs: 2, sm: 3 }, pb: 3 }}
              >
                <Button component={RouterLink} to={paths.clientAddAlert} size="large" disabled={send.isPending}>
                  Cancel
                </Button>
                <Button type="submit" variant="contained" color="secondary" size="large" loading={send.isPending}>
                  Send Lost Pet Alert
                </Button>
              </Stack>
            </Box>
          </FormProvider>
        </Card>
      </Grid>
    </Grid>
  );
}

/** When and where the pet went missing, and what happened. */
function LastSeenFields({ petName, homeZip }: { petName: string; homeZip: string | null }) {
  const { control, setValue, clearErrors } = useFormContext<LostAlertFormInput>();
  const [homeZipIsLastSeen, zipCode, description] = useWatch({ control, name: ['homeZipIsLastSeen', 'zipCode', 'incidentDescription'] });
  const home = lastSeenZip({ homeZipIsLastSeen: true, zipCode: null }, homeZip);

  return (
    <>
      <FormSection title="When and where" />
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="missingDate"
          label="Missing Date"
          type="datetime-local"
          required
          parse={fromLocalDateTime}
          format={toLocalDateTime}
          helperText={`When ${petName} went missing`}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: nowAsLocalDateTime() } }}
        />
      </Grid>
      <Grid size={12}>
        <FormCheckbox
          control={control}
          name="homeZipIsLastSeen"
          variant="switch"
          label="Home ZIP is where my pet was last seen"
          disabled={!home}
          onValueChange={(checked) => {
            // The home ZIP stands in for the field; what was typed there no longer counts.
            if (checked) setValue('zipCode', '');
            clearErrors('zipCode');
          }}
        />
        {home ? (
          homeZipIsLastSeen && <PlaceLine zip={home} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            Add your ZIP code to <Link component={RouterLink} to={paths.clientProfile}>your profile</Link> to use it here.
          </Typography>
        )}
      </Grid>
      {!homeZipIsLastSeen && (
        <Grid size={{ xs: 12, sm: 6 }}>
          <LastSeenZipField zipCode={zipCode ?? ''} />
        </Grid>
      )}

      <FormSection title="What happened" />
      <Grid size={12}>
        <FormTextField
          control={control}
          name="incidentDescription"
          label="Incident Description"
          required
          multiline
          minRows={3}
          placeholder={`Where and how ${petName} went missing, and anything a finder should know`}
          // Past the limit the counter gives way to the message; the text stays for the owner to shorten.
          helperText={`${description?.length ?? 0}/${limits.incidentDescriptionMax}`}
        />
      </Grid>
    </>
  );
}

/** The last-seen ZIP, with the place it names once five digits are typed: "Saint Louis, MO 63101". */
function LastSeenZipField({ zipCode }: { zipCode: string }) {
  const { control } = useFormContext<LostAlertFormInput>();
  const place = useZipPlace(zipCode.trim());
  const helperText = place.data?.place ?? (place.isError ? firstError(place.error, messages.zipUnknown) : 'Where your pet was last seen');
  return (
    <FormTextField
      control={control}
      name="zipCode"
      label="Last Seen ZIP Code"
      required
      autoComplete="postal-code"
      helperText={helperText}
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
    />
  );
}

function PlaceLine({ zip }: { zip: string }) {
  const place = useZipPlace(zip);
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary', ml: 1 }}>
      <Place fontSize="small" aria-hidden />
      <Typography variant="body2">{place.data?.place ?? zip}</Typography>
    </Stack>
  );
}

/**
 * What sending does, and what it costs (`price`: the amount, 'free', or unknown while asked): a
 * protected pet's plan includes its alerts.
 */
function HowItWorks({ price, petName }: { price: string | undefined; petName: string }) {
  const free = price === 'free';
  const steps = [
    {
      icon: <CampaignOutlined color="primary" />,
      text: `Vets, shelters and rescues within ${limits.alertRadiusMiles} miles get an e-mail with your pet's photo and your description.`,
    },
    { icon: <Place color="primary" />, text: "It links to your pet's public profile, where a finder can reach you." },
    { icon: <MarkEmailRead color="primary" />, text: 'Analytics shows who received and opened it. Mark your pet as found once home.' },
  ];
  return (
    <Card component="aside" aria-label="How the alert works">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
          How the alert works
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row', xl: 'column' }} spacing={2}>
          {steps.map(({ icon, text }) => (
            <Stack key={text} direction="row" spacing={1.5} sx={{ flex: 1 }}>
              {icon}
              <Typography variant="body2">{text}</Typography>
            </Stack>
          ))}
        </Stack>
        {price && (
          <Alert severity={free ? 'success' : 'info'} sx={{ mt: 2.5 }}>
            <AlertTitle>{free ? `Free: ${petName} is protected` : `Price: ${price}`}</AlertTitle>
            {free
              ? `${petName}'s protection plan includes lost pet alerts: it goes out as soon as you send it.`
              : 'You pay for the alert on the next page; it goes out as soon as the payment is through.'}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
