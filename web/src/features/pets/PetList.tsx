import type { Pet } from '@petreg/contract';
import { Pets, WarningAmber } from '@mui/icons-material';
import { Box, Card, CardActionArea, CardMedia, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { EmptyState } from '../../components/EmptyState';
import { useUserPets } from './api';
import { petImage, petTilePath, petWarning } from './petDisplay';

/** The owner's pets as picture tiles (spec 2.3, 2.4), or what stands in for them while loading or empty. */
export function PetList() {
  const pets = useUserPets();
  if (!pets.data) return <CenteredSpinner />;
  if (pets.data.length === 0) {
    return <EmptyState icon={<Pets />} title="No pets yet" hint="Add your pet and its microchip so a finder can reach you." />;
  }
  return <PetTiles pets={pets.data} />;
}

/** A tile opens the pet, or its plan choice while it is not registered. */
function PetTiles({ pets }: { pets: Pet[] }) {
  return (
    <Box
      component="ul"
      aria-label="Pets"
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(132px, 1fr))' }}
    >
      {pets.map((pet) => (
        <li key={pet.id}>
          <PetTile pet={pet} />
        </li>
      ))}
    </Box>
  );
}

function PetTile({ pet }: { pet: Pet }) {
  const warning = petWarning(pet);
  return (
    <Card sx={{ position: 'relative', height: '100%' }}>
      <CardActionArea component={RouterLink} to={petTilePath(pet)} aria-label={warning ? `${pet.name}, ${warning}` : pet.name}>
        <CardMedia component="img" image={petImage(pet)} alt="" sx={{ aspectRatio: '1', objectFit: 'cover' }} />
        <Typography variant="subtitle1" noWrap sx={{ px: 1.5, py: 1, fontWeight: 600, textAlign: 'center' }}>
          {pet.name}
        </Typography>
      </CardActionArea>
      {warning && (
        <Tooltip title={warning}>
          <Box
            role="img"
            aria-label={warning}
            tabIndex={0}
            sx={{
              position: 'absolute',
              top: 8,
              right: 8,
              display: 'grid',
              placeItems: 'center',
              width: 32,
              height: 32,
              borderRadius: '50%',
              bgcolor: 'warning.main',
              color: 'warning.contrastText',
              boxShadow: 2,
            }}
          >
            <WarningAmber fontSize="small" />
          </Box>
        </Tooltip>
      )}
    </Card>
  );
}
