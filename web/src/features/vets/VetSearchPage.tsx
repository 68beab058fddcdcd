import { zodResolver } from '@hookform/resolvers/zod';
import { formatPhone, messages, paths, siteIdOfPlaceId, siteSearchQuery, withId, type Site, type SiteSearchResult } from '@petreg/contract';
import { ExpandMore, Language, LocalHospital, NearMe, Phone, Place, Search, SearchOff } from '@mui/icons-material';
import { Alert, Box, Button, Card, CardActions, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useId, useMemo, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Navigate, Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
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
import type { MapPoint } from './VetMap';
import { VetRating } from './VetRating';

// Leaflet arrives with the first map, after the results: the other screens never load it.
const VetMap = lazy(() => import('./VetMap'));

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
  const results = useMemo(() => search.data?.pages.flatMap((page) => page.results) ?? [], [search.data]);
  const points = useMemo(() => mapPoints(results), [results]);

  if (search.isPending) return <CenteredSpinner />;
  // A failed Show more keeps the results shown (its error is below them); a failed search has none.
  if (search.isError && !search.isFetchNextPageError) {
    return <Alert severity="error">{firstError(search.error, messages.vetSearchUnavailable)}</Alert>;
  }
  const near = search.data.pages[0]!.near;
  if (results.length === 0) {
    return (
      <Box role="status">
        {near ? (
          <EmptyState
            icon={<SearchOff />}
            title={`No vets found within ${near.radiusMiles} miles of ${near.place}`}
            hint="Try a ZIP code nearby, or search by the practice's name."
          />
        ) : (
          <EmptyState
            icon={<SearchOff />}
            title="No vets found"
            hint="Try your 5-digit ZIP code to see the practices near you, or check the spelling of the name or address."
          />
        )}
      </Box>
    );
  }

  /** Adds the vet to the directory (or finds it there), then goes where `to` says. */
  const addThen = (result: SiteSearchResult, to: (site: Site) => string) =>
    add.mutate(result.googlePlaceId, {
      onSuccess: (site) => navigate(to(site)),
      onError: () => toast(messages.siteCreateFailed, { variant: 'error' }),
    });
  // The pet the search started from stays chosen on the next step.
  const assignPath = (site: Site) => `${withId(paths.clientAddVetOnPet, site.id)}${petId ? `?petId=${petId}` : ''}`;

  return (
    <>
      {/* Read out when a search ends; the cards are there to browse. */}
      <Typography variant="subtitle1" component="p" role="status" sx={{ mb: 2 }}>
        {summary(results.length, query, near?.place ?? null, search.hasNextPage)}
      </Typography>
      {points.length > 0 && (
        <Box sx={{ mb: 2 }}>
          <Suspense fallback={<Box sx={{ height: mapHeight, borderRadius: 2, bgcolor: 'grey.100' }} />}>
            <VetMap label="Map of the results" points={points} centre={near} height={mapHeight} />
          </Suspense>
        </Box>
      )}
      <Box
        component="ul"
        aria-label="Search results"
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}
      >
        {results.map((result, index) => (
          <li key={result.googlePlaceId}>
            <VetResultCard
              result={result}
              number={hasPlace(result) ? index + 1 : undefined}
              busy={add.isPending && add.variables === result.googlePlaceId}
              disabled={add.isPending}
              onAdd={() => addThen(result, assignPath)}
              onDetails={() => addThen(result, (site) => withId(paths.clientVetInfo, site.id))}
            />
          </li>
        ))}
      </Box>
      {search.hasNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
          <Button variant="outlined" size="large" startIcon={<ExpandMore />} loading={search.isFetchingNextPage} onClick={() => void search.fetchNextPage()}>
            Show more
          </Button>
        </Box>
      )}
      {search.isFetchNextPageError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {firstError(search.error, messages.vetSearchUnavailable)}
        </Alert>
      )}
    </>
  );
}

const mapHeight = { xs: 240, sm: 340 };

/** "20 nearest vets to Saint Louis, MO 63101" for a ZIP code; "3 vets found for “oak”" for a name. */
function summary(count: number, query: string, place: string | null, more: boolean): string {
  if (place) return count === 1 ? `The nearest vet to ${place}` : `${count} nearest vets to ${place}`;
  if (more) return `First ${count} vets found for “${query}”`;
  return `${count === 1 ? '1 vet' : `${count} vets`} found for “${query}”`;
}

const hasPlace = (result: SiteSearchResult): result is SiteSearchResult & { latitude: number; longitude: number } =>
  result.latitude !== null && result.longitude !== null;

/** The results the map can place, numbered as their cards are. */
function mapPoints(results: SiteSearchResult[]): MapPoint[] {
  return results.flatMap((result, index) =>
    hasPlace(result)
      ? [
          {
            key: result.googlePlaceId,
            latitude: result.latitude,
            longitude: result.longitude,
            name: result.name,
            number: index + 1,
            href: vetPagePath(result),
            detail: result.distanceMiles === undefined ? undefined : distanceText(result.distanceMiles),
          },
        ]
      : [],
  );
}

/** A directory entry's page; a maps service's place has none until it is added to the directory. */
function vetPagePath(result: SiteSearchResult): string | null {
  const siteId = siteIdOfPlaceId(result.googlePlaceId);
  return siteId === null ? null : withId(paths.clientVetInfo, siteId);
}

const distanceText = (miles: number) => `${miles.toFixed(1)} miles away`;

/** The card's number, as its marker on the map shows it. */
function MapNumber({ number }: { number: number }) {
  return (
    <Box
      title={`Number ${number} on the map`}
      sx={{
        flexShrink: 0,
        width: 28,
        height: 28,
        borderRadius: '50%',
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontWeight: 700,
        fontSize: '0.85rem',
      }}
    >
      {number}
    </Box>
  );
}

interface VetResultCardProps {
  result: SiteSearchResult;
  /** Its marker's number on the map; none when the map cannot place it. */
  number: number | undefined;
  busy: boolean;
  disabled: boolean;
  onAdd: () => void;
  /** Opens the page of a place not yet in the directory (adding it there first). */
  onDetails: () => void;
}

function VetResultCard({ result, number, busy, disabled, onAdd, onDetails }: VetResultCardProps) {
  const titleId = useId();
  const address = addressLines(result.address1, result);
  const page = vetPagePath(result);
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
          {number !== undefined && <MapNumber number={number} />}
          <Typography id={titleId} variant="h3" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {page ? (
              <Link component={RouterLink} to={page} underline="hover" color="inherit">
                {result.name}
              </Link>
            ) : (
              result.name
            )}
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
          {result.distanceMiles !== undefined && <VetDetail icon={<NearMe />}>{distanceText(result.distanceMiles)}</VetDetail>}
          {result.url && (
            <VetDetail icon={<Language />}>
              <Link href={result.url} target="_blank" rel="noopener noreferrer">
                Website
              </Link>
            </VetDetail>
          )}
        </Stack>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1 }}>
        {page ? (
          <Button component={RouterLink} to={page} variant="outlined" fullWidth aria-label={`Details of ${result.name}`}>
            Details
          </Button>
        ) : (
          <Button variant="outlined" fullWidth disabled={disabled} onClick={onDetails} aria-label={`Details of ${result.name}`}>
            Details
          </Button>
        )}
        <Button variant="contained" fullWidth loading={busy} disabled={disabled && !busy} onClick={onAdd}>
          Add vet
        </Button>
      </CardActions>
    </Card>
  );
}
