import {
  chipFormats,
  messages,
  paths,
  reachOwnerPath,
  support,
  type ChipNumberInfo,
  type MicrochipLookupInput,
} from '@petreg/contract';
import { Clear, Search } from '@mui/icons-material';
import {
  Alert,
  AlertTitle,
  Backdrop,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormHelperText,
  IconButton,
  InputAdornment,
  InputLabel,
  Link,
  OutlinedInput,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { ApiError } from '../../app/api';
import { useSupportContact } from '../../app/settings';
import { useMicrochipLookup } from './api';

/**
 * Validates with the contract's lookup schema, loaded on the first search: a finder sees the page
 * without waiting for zod, and the number is checked by the same rules.
 */
const resolver: Resolver<MicrochipLookupInput, unknown, { id: string }> = async (...args) =>
  (await import('./lookupResolver')).lookupResolver(...args);

/** The lookup box with its answer: the lookup page's, and the one on an unknown pet profile. */
export function MicrochipLookup() {
  const lookup = useMicrochipLookup();
  const form = useForm<MicrochipLookupInput, unknown, { id: string }>({
    resolver,
    defaultValues: { id: '' },
  });
  const typed = useWatch({ control: form.control, name: 'id' });
  const empty = !typed.trim();

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spec 5: an empty value is ignored, not refused. Read from the form, not this render: a search
    // asked for before the page's script ran comes right after the typed number is taken in.
    if (!form.getValues('id').trim()) return;
    // An answer belongs to the number it was asked for: a new search, or a refused number, drops it.
    lookup.reset();
    void form.handleSubmit(({ id }) => lookup.mutate(id))(event);
  };

  const clear = () => {
    form.reset({ id: '' });
    lookup.reset();
  };

  const error = form.formState.errors.id?.message;
  const inputId = useId();
  const helperId = `${inputId}-helper`;

  // On a page rendered on the server a finder may type before the script runs: the input hydrated is
  // the one typed in (never given a value by the script), and the number it holds counts. The form
  // takes that number in silently as the input registers, so a setValue of it changes nothing and its
  // watchers (Search, Clear) stay empty: set from empty, it reaches them (before any paint).
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typedBefore = input.current?.value;
    if (!typedBefore) return;
    form.setValue('id', '');
    form.setValue('id', typedBefore);
  }, [form]);

  return (
    <>
      <Box component="form" onSubmit={search} noValidate role="search">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          {/* TextField's parts (full width, like every TextField of the theme) without the Select it imports. */}
          <FormControl error={Boolean(error)} fullWidth>
            <InputLabel htmlFor={inputId}>Microchip Number</InputLabel>
            <OutlinedInput
              {...form.register('id', { onChange: () => lookup.reset() })}
              id={inputId}
              inputRef={input}
              label="Microchip Number"
              autoComplete="off"
              aria-describedby={helperId}
              endAdornment={
                !empty && (
                  <InputAdornment position="end">
                    <IconButton aria-label="Clear" onClick={clear} edge="end">
                      <Clear />
                    </IconButton>
                  </InputAdornment>
                )
              }
            />
            <FormHelperText id={helperId}>{error ?? ' '}</FormHelperText>
          </FormControl>
          <Button
            type="submit"
            variant="contained"
            size="large"
            startIcon={<Search />}
            disabled={empty}
            sx={{ height: 56, px: 4, flexShrink: 0 }}
          >
            Search
          </Button>
        </Stack>
      </Box>
      <Link href={support.findChipNumberUrl} target="_blank" rel="noopener noreferrer" variant="body2">
        I don't know my pet's chip number
      </Link>
      <Box aria-live="polite" sx={{ mt: 3 }}>
        {lookup.isSuccess && <Outcome registered={lookup.data.result?.id ?? null} chip={lookup.data.chip} />}
        {lookup.isError &&
          (lookup.error instanceof ApiError && lookup.error.status === 429 ? (
            <Alert severity="warning">{messages.tooManyRequests}</Alert>
          ) : (
            // Spec 7: lookup errors are swallowed; the finder sees the not-registered advice.
            <Outcome registered={null} chip={null} />
          ))}
      </Box>
      <Backdrop open={lookup.isPending} sx={{ zIndex: (theme) => theme.zIndex.modal, color: 'common.white' }}>
        <CircularProgress color="inherit" aria-label="Searching" />
      </Backdrop>
    </>
  );
}

/** `registered`: the registered chip's number, null when the number is not registered here. */
function Outcome({ registered, chip }: { registered: string | null; chip: ChipNumberInfo | null }) {
  const contact = useSupportContact();
  return (
    <Stack spacing={2}>
      {registered ? (
        <Alert severity="success">
          <AlertTitle>{messages.lookupRegistered}</AlertTitle>
          {contact ? (
            <>
              Call our 24/7 support line at{' '}
              <Link href={`${contact.phoneHref},${support.lookupExtension}`} sx={{ fontWeight: 600 }}>
                {contact.phone}
              </Link>{' '}
              and dial extension {support.lookupExtension} to speak with a live representative, who will reach the owner.
            </>
          ) : (
            <>Call our 24/7 support line and dial extension {support.lookupExtension} to speak with a live representative, who will reach the owner.</>
          )}
          <Box sx={{ mt: 1.5 }}>
            <Button variant="contained" color="success" href={reachOwnerPath({ chip: registered })}>
              Reach the owner
            </Button>
          </Box>
        </Alert>
      ) : (
        <Alert severity="warning">
          <AlertTitle>{messages.lookupNotRegistered}</AlertTitle>
          A microchip only works when it is enrolled with a recovery registry that is actively searched and answers
          the phone 24/7. Protect your pet:{' '}
          {/* A plain link: the lookup is a part of the finder's pages that runs without the app's router. */}
          <Link href={paths.signUp} sx={{ fontWeight: 600 }}>
            Signup
          </Link>
        </Alert>
      )}
      {chip && <ChipNumberHint chip={chip} registered={registered !== null} />}
    </Stack>
  );
}

/** What the number itself says: its format and the manufacturer (or country) it points to. */
function ChipNumberHint({ chip, registered }: { chip: ChipNumberInfo; registered: boolean }) {
  return (
    <Box sx={{ p: 2, borderRadius: 2, bgcolor: 'action.hover' }}>
      <Typography variant="subtitle2" component="h2" gutterBottom>
        About this number
      </Typography>
      {chip.format && <Typography variant="body2">Format: {chipFormats[chip.format]}</Typography>}
      {chip.manufacturer && <Typography variant="body2">Manufacturer: {chip.manufacturer}</Typography>}
      {chip.countryCode && (
        <Typography variant="body2">
          Country code {chip.countryCode}: the chip was issued under a national scheme, often abroad.
        </Typography>
      )}
      {!registered && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          Ask the registry of the chip's manufacturer, or search every participating registry with the{' '}
          <Link href={support.universalLookupUrl} target="_blank" rel="noopener noreferrer">
            AAHA Universal Pet Microchip Lookup
          </Link>
          .
        </Typography>
      )}
    </Box>
  );
}
