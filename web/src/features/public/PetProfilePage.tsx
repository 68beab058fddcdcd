import {
  formatAge,
  isSafeAtHome,
  lastSeenText,
  messages,
  petNameLabel,
  petPhotoSizes,
  reachOwnerPath,
  sexes,
  sharesContact,
  type PublicProfile,
} from '@petreg/contract';
import { CheckCircle, Home, Place, Schedule, SearchOff, Verified, VolunteerActivism } from '@mui/icons-material';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useParams } from 'react-router';
import { firstError } from '../../app/api';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { speciesImage } from '../pets/petDisplay';
import { usePublicProfile } from './api';
import { Island } from './Island';
import { Section } from './profileParts';
import { PublicLayout } from './PublicLayout';

/** pet-profiles/:id: what a finder sees of a pet, and how to reach its owner while it is missing (spec 2.5). */
export function PetProfilePage() {
  return <PetProfile id={useParams().id ?? ''} />;
}

/** The profile of the pet with this public id, in the public pages' frame: its page's, and a short link's. */
export function PetProfile({ id }: { id: string }) {
  return <PublicLayout>{id ? <Profile key={id} id={id} /> : <UnknownProfile />}</PublicLayout>;
}

function Profile({ id }: { id: string }) {
  const profile = usePublicProfile(id);
  if (profile.data === null) return <UnknownProfile />;
  if (profile.isError) return <Alert severity="error">{firstError(profile.error, messages.genericError)}</Alert>;
  if (!profile.data) return <CenteredSpinner />;
  return <PetCard profile={profile.data} publicId={id} />;
}

/** A mistyped or removed profile address: a finder holding the pet can still look up its chip. */
function UnknownProfile() {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <SearchOff color="action" fontSize="large" aria-hidden />
        <Typography variant="h1">We couldn't find this pet profile</Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        The link may be mistyped, or the owner may have removed the profile. Found a pet? Enter the number a microchip
        scanner shows to see whether the chip is registered with us.
      </Typography>
      <Island name="lookup" props={{}} />
    </Paper>
  );
}

/** The photo's size on the card, in CSS pixels: given to the image, so the page does not move when it arrives. */
const PHOTO_PX = 144;

/** The photo's square copies for 1x, 2x and 3x screens, sized for the card, not the phone photo as uploaded. */
const photoSizes = (image: string) => petPhotoSizes.map((size) => `${image}?size=${size} ${size / PHOTO_PX}x`).join(', ');

function PetCard({ profile, publicId }: { profile: PublicProfile; publicId: string }) {
  const { pet } = profile;
  const sex = sexes.find((s) => s.id === pet.sex && s.id !== 0);
  const tiles = [
    pet.age > 0 && { label: 'Age', value: formatAge(pet.age) },
    sex && { label: 'Gender', value: sex.name },
    pet.weight !== null && { label: 'Size', value: `${pet.weight} kg` },
  ].filter((tile): tile is { label: string; value: string } => Boolean(tile));

  return (
    <Card component="article" aria-labelledby="pet-name">
      <Box sx={{ bgcolor: 'primary.main', height: 96 }} />
      <CardContent sx={{ px: { xs: 2.5, sm: 4 }, pb: 4 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ mt: -8 }}>
          <Avatar
            src={pet.image ? `${pet.image}?size=${PHOTO_PX * 2}` : speciesImage(pet.species)}
            alt={pet.image ? `Photo of ${pet.petName}` : ''}
            variant="rounded"
            // The largest thing a finder's phone paints first: fetched before the scripts.
            slotProps={{ img: { width: PHOTO_PX, height: PHOTO_PX, fetchPriority: 'high', srcSet: pet.image ? photoSizes(pet.image) : undefined } }}
            sx={{ width: PHOTO_PX, height: PHOTO_PX, borderRadius: 4, border: 4, borderColor: 'background.paper', bgcolor: 'background.paper' }}
          />
          {/* Below the photo on phones; beside it, under the banner, on wider screens. */}
          <Box sx={{ minWidth: 0, pt: { sm: 9 } }}>
            <Typography variant="overline" color="text.secondary">
              {petNameLabel(pet.species)}
            </Typography>
            <Typography variant="h1" id="pet-name" sx={{ overflowWrap: 'anywhere' }}>
              {pet.petName}
            </Typography>
            <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', mt: 0.5, color: pet.missingDate ? 'error.main' : 'text.secondary' }}>
              {pet.missingDate ? <Place fontSize="small" aria-hidden /> : <Home fontSize="small" aria-hidden />}
              <Typography sx={{ fontWeight: 600 }}>{lastSeenText(pet)}</Typography>
            </Stack>
            {pet.breed && <Typography color="text.secondary">{pet.breed}</Typography>}
            {/* A plain link: it works before (or without) any script. */}
            <Button variant="contained" startIcon={<VolunteerActivism />} href={reachOwnerPath({ pet: publicId })} sx={{ mt: 2 }}>
              Reach the owner
            </Button>
          </Box>
        </Stack>

        {tiles.length > 0 && (
          <Stack direction="row" useFlexGap spacing={1.5} sx={{ mt: 3, flexWrap: 'wrap' }}>
            {tiles.map(({ label, value }) => (
              <Paper key={label} variant="outlined" sx={{ px: 2.5, py: 1.5, minWidth: 110, textAlign: 'center' }}>
                <Typography variant="caption" color="text.secondary">
                  {label}
                </Typography>
                <Typography sx={{ fontWeight: 700, whiteSpace: 'pre-line' }}>{value}</Typography>
              </Paper>
            ))}
          </Stack>
        )}

        <Stack spacing={2.5} divider={<Divider flexItem />} sx={{ mt: 4 }}>
          {pet.missingDate && (
            <Section title="Lost time" icon={<Schedule color="error" />}>
              <Island name="lostTime" props={{ value: pet.missingDate }} />
            </Section>
          )}
          {pet.foundDate && (
            <Section title="Found" icon={<CheckCircle color="success" />}>
              <Typography>{pet.foundSince}</Typography>
            </Section>
          )}
          {isSafeAtHome(pet) && (
            <Section title="Not lost" icon={<Verified color="success" />}>
              <Typography>Safe at home</Typography>
            </Section>
          )}
          <Section title="Owners details">
            {pet.firstName === null ? (
              // A protected record: the owner is reached through the registry only.
              <Typography color="text.secondary">
                The owner's details are private. Use Reach the owner: we pass your message on at once.
              </Typography>
            ) : (
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Avatar src={pet.userPhoto ?? undefined} alt="">
                  {pet.firstName.charAt(0)}
                </Avatar>
                <Box>
                  <Typography sx={{ fontWeight: 600 }}>{`${pet.firstName} ${pet.lastName ?? ''}`}</Typography>
                  {(pet.state || pet.country) && (
                    <Typography variant="body2" color="text.secondary">
                      {[pet.state?.abbreviation, pet.country].filter(Boolean).join(', ')}
                    </Typography>
                  )}
                </Box>
              </Stack>
            )}
          </Section>
          {sharesContact(pet) && <Island name="contact" props={{ profile }} />}
        </Stack>
      </CardContent>
    </Card>
  );
}
