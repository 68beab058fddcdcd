import { zodResolver } from '@hookform/resolvers/zod';
import { foundReportSchema, limits, messages, paths, type FoundReport, type FoundReportInput, type FoundReportTarget } from '@petreg/contract';
import { CheckCircle, Send } from '@mui/icons-material';
import { Alert, Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { useSupportContact } from '../../app/settings';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { FormTextField } from '../../components/FormTextField';
import { ImageField } from '../../components/ImageField';
import paw from '../pets/images/paw.svg';
import { PublicLayout } from '../public/PublicLayout';
import { useFoundReportTarget, useSendFoundReport, type FinderOpening } from './finderApi';

/** The pet the address names: `?pet=<publicId>` (its profile) or `?chip=<chip number>` (the lookup). */
function openingOf(params: URLSearchParams): FinderOpening | null {
  const pet = params.get('pet');
  const chip = params.get('chip');
  if (pet && !chip) return { pet };
  if (chip && !pet) return { chip };
  return null;
}

/** found: the finder's form, public. The finder writes to the owner and learns nothing about them. */
export function FinderReportPage() {
  const opening = openingOf(useSearchParams()[0]);
  return (
    <PublicLayout>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 5 } }}>
        {opening ? <Finder key={JSON.stringify(opening)} opening={opening} /> : <Unreachable message="Open this form from a pet's profile or from the microchip lookup." />}
      </Paper>
    </PublicLayout>
  );
}

function Finder({ opening }: { opening: FinderOpening }) {
  const target = useFoundReportTarget(opening);
  if (target.isError) return <Unreachable message={firstError(target.error, messages.genericError)} />;
  if (!target.data) return <CenteredSpinner />;
  return <FinderForm opening={opening} target={target.data} />;
}

/** An unknown chip or profile, in the lookup's or the profile's words, and where to go instead. */
function Unreachable({ message }: { message: string }) {
  const contact = useSupportContact();
  return (
    <Stack spacing={2}>
      <Alert severity="error">{message}</Alert>
      <Typography>
        Check the number on the tag or the scanner and{' '}
        <Link component={RouterLink} to={paths.microchipLookup}>
          look the microchip up
        </Link>
        {contact ? (
          <>
            , or call our 24/7 support line at <Link href={contact.phoneHref}>{contact.phone}</Link>.
          </>
        ) : (
          '.'
        )}
      </Typography>
    </Stack>
  );
}

/** Moves the robots' field off screen: people never see or reach it; form-filling robots fill it in. */
const offScreen = { position: 'absolute', left: '-10000px', top: 'auto', width: '1px', height: '1px', overflow: 'hidden' } as const;

function FinderForm({ opening, target }: { opening: FinderOpening; target: FoundReportTarget }) {
  const send = useSendFoundReport();
  const { control, handleSubmit, register } = useForm<FoundReportInput, unknown, FoundReport>({
    resolver: zodResolver(foundReportSchema),
    defaultValues: {
      ...('pet' in opening ? { publicId: opening.pet } : { chipId: opening.chip }),
      name: '',
      phone: '',
      email: '',
      message: '',
      where: '',
      photo: null,
      answer: '',
      leaveBlank: '',
    },
  });
  const message = useWatch({ control, name: 'message' }) ?? '';
  const onSubmit = handleSubmit((report) => send.mutate(report));

  if (send.isSuccess) return <Thanks sentence={send.data.message} />;

  const busy = send.isPending;
  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <Typography variant="h1" gutterBottom sx={{ overflowWrap: 'anywhere' }}>
        {target.petName ? `You found ${target.petName}?` : 'You found a pet?'}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Write to the owner here. We pass your message on at once by email and text. The owner's details stay private: the
        owner contacts you, so leave a phone number or an email.
      </Typography>
      {send.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {firstError(send.error, messages.genericError)}
        </Alert>
      )}
      <Stack spacing={2.5}>
        <FormTextField control={control} name="name" label="Your name" required autoComplete="name" disabled={busy} />
        <FormTextField control={control} name="phone" label="Your phone" type="tel" autoComplete="tel" disabled={busy} helperText="A phone number or an email, or both" />
        <FormTextField control={control} name="email" label="Your email" type="email" autoComplete="email" disabled={busy} />
        <FormTextField
          control={control}
          name="message"
          label="Message to the owner"
          required
          multiline
          minRows={4}
          disabled={busy}
          helperText={`${message.length}/${limits.foundMessageMax}`}
          slotProps={{ htmlInput: { maxLength: limits.foundMessageMax } }}
        />
        <FormTextField
          control={control}
          name="where"
          label="Where is the pet now?"
          required
          disabled={busy}
          helperText="A place, an address or a ZIP code"
        />
        {target.question && (
          <FormTextField
            control={control}
            name="answer"
            label={target.question}
            disabled={busy}
            helperText="The owner's question about the pet. Optional; only the owner sees your answer."
          />
        )}
        <Controller
          control={control}
          name="photo"
          render={({ field, fieldState }) => (
            <ImageField label="Photo of the pet (optional)" value={field.value} onChange={field.onChange} previewSrc={paw} disabled={busy} error={fieldState.error?.message} />
          )}
        />
        <Box sx={offScreen} aria-hidden>
          <label>
            Leave this empty
            <input type="text" tabIndex={-1} autoComplete="off" {...register('leaveBlank')} />
          </label>
        </Box>
        <Button type="submit" variant="contained" size="large" startIcon={<Send />} disabled={busy} sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' } }}>
          Send to the owner
        </Button>
      </Stack>
    </Box>
  );
}

/** The sentence the portal answered: who was told; nothing about the owner. */
function Thanks({ sentence }: { sentence: string }) {
  const contact = useSupportContact();
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <CheckCircle color="success" fontSize="large" aria-hidden />
        <Typography variant="h1">Message sent</Typography>
      </Stack>
      <Typography role="status" sx={{ fontWeight: 600 }}>
        {sentence}
      </Typography>
      <Typography color="text.secondary">
        Please keep the pet safe for now. The owner will contact you by phone or email.
        {contact && (
          <>
            {' '}
            If you cannot keep the pet, call our 24/7 support line at <Link href={contact.phoneHref}>{contact.phone}</Link>.
          </>
        )}
      </Typography>
    </Stack>
  );
}
