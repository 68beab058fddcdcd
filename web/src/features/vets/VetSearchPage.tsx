import { zodResolver } from '@hookform/resolvers/zod';
import { formatPhone, messages, paths, siteSearchQuery, withId, type SiteSearchResult } from '@petreg/contract';
import { Language, LocalHospital, NearMe, Phone, Place, Search, SearchOff } from '@mui/icons-material';
import { Alert, Box, Button, Card, CardActions, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useId, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { firstError } from '../../app/api';
import { recordId } from '../../app/params';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useUserPets } from '../pets/api';
import { useAddVetByPlace, useVetSearch } from './api';
import { addressLines, telHref } from './vetDisplay';
import { VetAvatar } from './VetAvatar';
import { VetAddress, VetDetail } from './VetDetail';
import { VetRating } from './VetRating';

/**
 * client/add-vet and client/add-vet/{petId}: vet search (spec 2.5). The search lives in the address
 * (?query=), so coming back from the next step shows the same results.
 */
export function VetSearchPage() {
  const param = useParams().petId;
  const petId = recordId(param);
  if (param !== undefined && petId === null) return <Navigate to={paths.notFound} replace />;
  return <VetSearch petId={petId} />;
}

function VetSearch({ petId }: { petId: number | null }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.get('query')?.trim() ?? '';
  const pet = useUserPets().data?.find((p) => p.id === petId);

  return (
    <>
      <PageHeader
        title="Find your vet"
        subtitle={
          pet
            ? `Search for ${pet.name}'s veterinarian by practice name, address or ZIP code.`
            : 'Search by practice name, address or ZIP code, then add the vet to your pets.'
        }
      />
      <VetSearchForm shownQuery={query} onSearch={(text) => setSearchParams({ query: text })} />
      <Box sx={{ mt: 3 }}>
        {query ? (
          <VetSearchResults query={query} petId={petId} />
        ) : (
          <EmptyState
            icon={<LocalHospital />}
            title="Start with your ZIP code"
            hint="It shows the practices nearest you first. You can also search by the practice's name or address."
          />
        )}
      </Box>
    </>
  );
}

/** Submitted by the button or Enter (spec 5); nothing to submit while the box is empty. */
function VetSearchForm({ shownQuery, onSearch }: { shownQuery: string; onSearch: (query: string) => void }) {
  const form = useForm<{ query: string }>({
    resolver: zodResolver(siteSearchQuery),
    defaultValues: { query: shownQuery },
  });
  const { reset } = form;
  // Back and forward move between searches: the box shows the one on screen.
  useEffect(() => reset({ query: shownQuery }), [reset, shownQuery]);
  const typed = useWatch({ control: form.control, name: 'query' });
  const empty = !typed.trim();
  const error = form.formState.errors.query?.message;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (empty) return;
    void form.handleSubmit(({ query }) => onSearch(query))(event);
  };

  return (
    <Box component="form" onSubmit={submit} noValidate role="search" aria-label="Vet search">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: 'flex-start', maxWidth: 720 }}>
        <TextField
          {...form.register('query')}
          label="Practice name, address or ZIP code"
          autoComplete="off"
          error={Boolean(error)}
          helperText={error ?? ' '}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          startIcon={<Search />}
          disabled={empty}
          sx={{ height: 56, px: 4, flexShrink: 0, width: { xs: '100%', sm: 'auto' } }}
        >
          Search
        </Button>
      </Stack>
    </Box>
  );
}

function VetSearchResults({ query, petId }: { query: string; petId: number | null }) {
  const search = useVetSearch(query);
  const navigate = useNavigate();
  const add = useAddVetByPlace();

  if (search.isPending) return <CenteredSpinner />;
  if (search.isError) return <Alert severity="error">{firstError(search.error, messages.vetSearchUnavailable)}</Alert>;
  if (search.data.length === 0) {
    return (
      <Box role="status">
        <EmptyState
          icon={<SearchOff />}
          title="No vets found"
          hint="Try your 5-digit ZIP code to see the practices near you, or check the spelling of the name or address."
        />
      </Box>
    );
  }

  const addVet = (result: SiteSearchResult) =>
    add.mutate(result.googlePlaceId, {
      // The pet the search started from stays chosen on the next step.
      onSuccess: (site) => navigate(`${withId(paths.clientAddVetOnPet, site.id)}${petId ? `?petId=${petId}` : ''}`),
      onError: () => toast(messages.siteCreateFailed, { variant: 'error' }),
    });

  return (
    <>
      {/* Read out when a search ends; the cards are there to browse. */}
      <Typography variant="subtitle1" component="p" role="status" sx={{ mb: 2 }}>
        {search.data.length === 1 ? '1 vet found' : `${search.data.length} vets found`} for “{query}”
      </Typography>
      <Box
        component="ul"
        aria-label="Search results"
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}
      >
        {search.data.map((result) => (
          <li key={result.googlePlaceId}>
            <VetResultCard
              result={result}
              adding={add.isPending && add.variables === result.googlePlaceId}
              disabled={add.isPending}
              onAdd={() => addVet(result)}
            />
          </li>
        ))}
      </Box>
    </>
  );
}

interface VetResultCardProps {
  result: SiteSearchResult;
  adding: boolean;
  disabled: boolean;
  onAdd: () => void;
}

function VetResultCard({ result, adding, disabled, onAdd }: VetResultCardProps) {
  const titleId = useId();
  const address = addressLines(result.address1, result);
  return (
    <Card component="article" aria-labelledby={titleId} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      {/* Photos come at most 400×300 (spec 9), shown in that proportion; a lower band on phones keeps the list short. */}
      {result.imageUrl && (
        <VetAvatar
          name={result.name}
          picture={result.imageUrl}
          variant="square"
          sx={{ width: '100%', maxWidth: 400, height: 'auto', aspectRatio: { xs: '16 / 9', sm: '4 / 3' }, fontSize: '2.5rem' }}
        />
      )}
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          {/* Without a photo the initials stand beside the name, not in a band of their own. */}
          {!result.imageUrl && <VetAvatar name={result.name} picture={null} sx={{ width: 48, height: 48 }} />}
          <Typography id={titleId} variant="h3" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {result.name}
          </Typography>
        </Stack>
        <VetRating rating={result.rating} reviewsCount={result.reviewsCount} />
        <Stack spacing={0.75} sx={{ mt: 1.5 }}>
          {address.length > 0 && (
            <VetDetail icon={<Place />}>
              <VetAddress lines={address} />
            </VetDetail>
          )}
          {result.phoneNumber && (
            <VetDetail icon={<Phone />}>
              <Link href={telHref(result.phoneNumber)}>{formatPhone(result.phoneNumber)}</Link>
            </VetDetail>
          )}
          {result.distanceMiles !== undefined && (
            <VetDetail icon={<NearMe />}>{`${result.distanceMiles.toFixed(1)} miles away`}</VetDetail>
          )}
          {result.url && (
            <VetDetail icon={<Language />}>
              <Link href={result.url} target="_blank" rel="noopener noreferrer">
                Website
              </Link>
            </VetDetail>
          )}
        </Stack>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button variant="contained" fullWidth loading={adding} disabled={disabled && !adding} onClick={onAdd}>
          Add vet
        </Button>
      </CardActions>
    </Card>
  );
}
