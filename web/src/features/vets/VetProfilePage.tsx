import { formatPhone, messages, paths, ui, type PlaceReview, type SiteWithDetail } from '@petreg/contract';
import { ContactPhone, Language, Map as MapIcon, Pets, Phone, Place, RateReview, Schedule } from '@mui/icons-material';
import {
  Box,
  Button,
  Chip,
  Container,
  Grid,
  Link,
  Rating,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { allErrors } from '../../app/api';
import { recordId } from '../../app/params';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { ErrorBanner } from '../../components/ErrorBanner';
import { SectionCard } from '../../components/SectionCard';
import { useVet } from './api';
import { GoBackLink } from './GoBackLink';
import { formatRating, mapUrl, siteAddressLines, telHref, vetPicture } from './vetDisplay';
import { VetAddress, VetDetail } from './VetDetail';
import { VetAvatar } from './VetAvatar';
import { VetRating } from './VetRating';

// Leaflet arrives after the page, only on the vet screens.
const VetMap = lazy(() => import('./VetMap'));
const mapHeight = { xs: 240, sm: 320 };

/**
 * The vet's page (spec 2.1): client/vet-info/profile/{id} inside the portal's frame; the older
 * client/vet-detail/{id} and client/vet/profile/{id} show the same under a plain header linking home.
 */
export function VetProfilePage({ variant }: { variant: 'portal' | 'plain' }) {
  const id = recordId(useParams().id);
  if (id === null) return <Navigate to={paths.notFound} replace />;
  const profile = <VetProfile key={id} id={id} />;
  return variant === 'plain' ? <PlainFrame>{profile}</PlainFrame> : profile;
}

function PlainFrame({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg" sx={{ py: 1.5 }}>
          <Link
            component={RouterLink}
            to={paths.client}
            underline="none"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, fontWeight: 700, fontSize: '1.1rem' }}
          >
            <Pets aria-hidden />
            Pet Registry
          </Link>
        </Container>
      </Box>
      <Container component="main" maxWidth="lg" sx={{ py: { xs: 2, sm: 3 } }}>
        {children}
      </Container>
    </Box>
  );
}

function VetProfile({ id }: { id: number }) {
  const vet = useVet(id);
  const back = (
    <Box sx={{ mb: 2 }}>
      <GoBackLink fallback={paths.client} />
    </Box>
  );

  if (vet.isError) {
    return (
      <>
        {back}
        <ErrorBanner key={vet.errorUpdatedAt} durationMs={ui.petErrorMs}>
          {allErrors(vet.error, messages.genericError)}
        </ErrorBanner>
      </>
    );
  }
  if (!vet.data) return <CenteredSpinner />;

  return (
    <>
      {back}
      <VetHeader vet={vet.data} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <ContactCard vet={vet.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <HoursCard weekdayText={vet.data.placeDetail.weekdayText} />
        </Grid>
        <LocationCard vet={vet.data} />
        <Grid size={12}>
          <ReviewsCard reviews={vet.data.placeDetail.reviews} />
        </Grid>
      </Grid>
    </>
  );
}

function VetHeader({ vet }: { vet: SiteWithDetail }) {
  const rating = vet.rating ?? vet.placeDetail.rating;
  return (
    <Stack direction="row" spacing={2.5} sx={{ alignItems: 'center', mb: 3 }}>
      <VetAvatar
        name={vet.name}
        picture={vetPicture(vet)}
        sx={{ width: { xs: 64, sm: 88 }, height: { xs: 64, sm: 88 }, borderRadius: 3, fontSize: { xs: '1.4rem', sm: '2rem' } }}
      />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere', fontSize: { xs: '1.6rem', sm: '2rem' } }}>
          {vet.name}
        </Typography>
        <Stack direction="row" spacing={1.5} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Chip label={vet.practiceType} size="small" color="primary" variant="outlined" />
          <VetRating rating={rating} reviewsCount={vet.reviewsCount} />
        </Stack>
      </Box>
    </Stack>
  );
}

function ContactCard({ vet }: { vet: SiteWithDetail }) {
  const detail = vet.placeDetail;
  const siteLines = siteAddressLines(vet);
  const address = siteLines.length > 0 ? siteLines : [detail.address].filter((line): line is string => Boolean(line));
  const phone = vet.phoneNumber ?? detail.phone;
  const website = vet.url ?? detail.website;
  const map = mapUrl(detail, address);

  return (
    <SectionCard
      title="Contact"
      avatar={<ContactPhone color="primary" />}
      footer={
        map && (
          <Button href={map} target="_blank" rel="noopener noreferrer" variant="outlined" size="small" startIcon={<MapIcon />}>
            Open in map
          </Button>
        )
      }
    >
      <Stack spacing={1.25}>
        {address.length > 0 && (
          <VetDetail icon={<Place />}>
            <VetAddress lines={address} />
          </VetDetail>
        )}
        {phone && (
          <VetDetail icon={<Phone />}>
            <Link href={telHref(phone)}>{formatPhone(phone)}</Link>
          </VetDetail>
        )}
        {website && (
          <VetDetail icon={<Language />}>
            <Link href={website} target="_blank" rel="noopener noreferrer">
              {websiteLabel(website)}
            </Link>
          </VetDetail>
        )}
        {address.length === 0 && !phone && !website && (
          <Typography variant="body2" color="text.secondary">
            No contact details yet
          </Typography>
        )}
      </Stack>
    </SectionCard>
  );
}

/** The vet on a map, when the directory or the maps service knows where it is. */
function LocationCard({ vet }: { vet: SiteWithDetail }) {
  const { latitude, longitude } = vet.placeDetail;
  if (latitude === null || longitude === null) return null;
  const point = { key: String(vet.id), latitude, longitude, name: vet.name, href: null };
  return (
    <Grid size={12}>
      <SectionCard title="Location" avatar={<MapIcon color="primary" />}>
        <Suspense fallback={<Box sx={{ height: mapHeight, borderRadius: 2, bgcolor: 'grey.100' }} />}>
          <VetMap label={`Map of ${vet.name}`} points={[point]} height={mapHeight} />
        </Suspense>
      </SectionCard>
    </Grid>
  );
}

/** The site's host name reads better than a long address: "www.example.org". */
function websiteLabel(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** "Monday: 8:00 AM – 6:00 PM" as a row of day and hours; today's row stands out. */
function HoursCard({ weekdayText }: { weekdayText: string[] }) {
  const today = new Date().toLocaleDateString('en-US', { weekday: 'long' });
  return (
    <SectionCard title="Business Hours" avatar={<Schedule color="primary" />}>
      {weekdayText.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Hours not available
        </Typography>
      ) : (
        <Table size="small" aria-label="Business hours">
          <TableBody>
            {weekdayText.map((line) => {
              const split = line.indexOf(': ');
              const day = split > 0 ? line.slice(0, split) : line;
              const hours = split > 0 ? line.slice(split + 2) : '';
              const isToday = day === today;
              return (
                <TableRow key={line} sx={{ '& > *': { fontWeight: isToday ? 700 : undefined }, '&:last-child > *': { border: 0 } }}>
                  <TableCell component="th" scope="row" sx={{ pl: 0, whiteSpace: 'nowrap' }}>
                    {day}
                  </TableCell>
                  <TableCell sx={{ pr: 0, textAlign: 'right' }}>{hours}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </SectionCard>
  );
}

function ReviewsCard({ reviews }: { reviews: PlaceReview[] }) {
  return (
    <SectionCard title="Reviews" avatar={<RateReview color="primary" />}>
      {reviews.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No reviews yet
        </Typography>
      ) : (
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {reviews.map((review, index) => (
            <Box component="li" key={`${review.author}-${index}`} sx={{ pb: 2, borderBottom: 1, borderColor: 'divider', '&:last-child': { border: 0, pb: 0 } }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="subtitle2" component="p">
                  {review.author}
                </Typography>
                {review.rating !== null && (
                  <Rating
                    value={review.rating}
                    precision={0.1}
                    readOnly
                    size="small"
                    getLabelText={(value) => `Rated ${formatRating(value)} out of 5`}
                  />
                )}
                {review.relativeTime && (
                  <Typography variant="body2" color="text.secondary">
                    {review.relativeTime}
                  </Typography>
                )}
              </Stack>
              <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-line' }}>
                {review.text}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
