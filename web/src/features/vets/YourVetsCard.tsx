import { paths, withId, type Site } from '@petreg/contract';
import { LocalHospital } from '@mui/icons-material';
import { Box, Button, Card, CardActionArea, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { SectionCard } from '../../components/SectionCard';
import { useUserVets } from './api';
import { vetPicture } from './vetDisplay';
import { VetAvatar } from './VetAvatar';

/** Your Vets on the dashboard (spec 2.3): a tile a vet, logo or initials and name, opening its page. */
export function YourVetsCard() {
  const vets = useUserVets();
  return (
    <SectionCard
      title="Your Vets"
      action={
        <Button component={RouterLink} to={paths.clientAddVet} variant="contained" size="small">
          Add a vet
        </Button>
      }
    >
      {!vets.data ? (
        <CenteredSpinner />
      ) : vets.data.length === 0 ? (
        <EmptyState
          icon={<LocalHospital />}
          title="No vets yet"
          hint="Link your veterinarian so their number is at hand in an emergency."
        />
      ) : (
        <Box
          component="ul"
          aria-label="Vets"
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(132px, 1fr))' }}
        >
          {vets.data.map((vet) => (
            <li key={vet.id}>
              <VetTile vet={vet} />
            </li>
          ))}
        </Box>
      )}
    </SectionCard>
  );
}

function VetTile({ vet }: { vet: Site }) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardActionArea component={RouterLink} to={withId(paths.clientVetInfo, vet.id)} aria-label={vet.name} sx={{ height: '100%' }}>
        <VetAvatar
          name={vet.name}
          picture={vetPicture(vet)}
          variant="square"
          sx={{ width: '100%', height: 'auto', aspectRatio: '1', fontSize: '2.25rem' }}
        />
        <Box sx={{ px: 1.5, py: 1 }}>
          {/* Long practice names end after three lines. */}
          <Typography
            variant="subtitle1"
            sx={{
              fontWeight: 600,
              lineHeight: 1.35,
              textAlign: 'center',
              display: '-webkit-box',
              WebkitLineClamp: 3,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
            }}
          >
            {vet.name}
          </Typography>
        </Box>
      </CardActionArea>
    </Card>
  );
}
