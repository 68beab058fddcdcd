import { formatPhone, messages, paths, withId, type Pet, type Site } from '@petreg/contract';
import { DeleteOutlined, LocalHospital } from '@mui/icons-material';
import { Button, IconButton, Link, List, ListItem, ListItemAvatar, ListItemText, Tooltip } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { SectionCard } from '../../components/SectionCard';
import { usePetVets, useRemoveVetFromPet } from './api';
import { telHref, vetPicture } from './vetDisplay';
import { VetAvatar } from './VetAvatar';

/** The pet page's vet card (spec 2.1): the pet's vets with their numbers, each removable. */
export function PetVetsCard({ pet }: { pet: Pet }) {
  const vets = usePetVets(pet.id);
  const remove = useRemoveVetFromPet();
  // Kept while the dialog closes, so its text does not vanish during the fade.
  const [removing, setRemoving] = useState<{ vet: Site; open: boolean } | null>(null);
  const close = () => setRemoving((current) => current && { ...current, open: false });

  const confirmRemove = (vet: Site) =>
    remove.mutate(
      { petId: pet.id, siteId: vet.id },
      {
        onSuccess: () => toast(messages.vetRemoved, { variant: 'success' }),
        onError: () => toast(messages.vetRemoveFailed, { variant: 'error' }),
        onSettled: close,
      },
    );

  return (
    <SectionCard
      title="Veterinarian"
      avatar={<LocalHospital color="primary" />}
      footer={
        <Button component={RouterLink} to={withId(paths.clientAddVet, pet.id)} variant="outlined" size="small">
          Add a vet
        </Button>
      }
    >
      {!vets.data ? (
        <CenteredSpinner />
      ) : vets.data.length === 0 ? (
        <EmptyState
          icon={<LocalHospital />}
          title="No vet linked yet"
          hint={`Link ${pet.name}'s vet so their number is at hand in an emergency.`}
        />
      ) : (
        <List aria-label={`Vets of ${pet.name}`} disablePadding>
          {vets.data.map((vet) => (
            <ListItem
              key={vet.id}
              divider
              disableGutters
              secondaryAction={
                <Tooltip title="Remove">
                  <IconButton aria-label={`Remove ${vet.name}`} edge="end" onClick={() => setRemoving({ vet, open: true })}>
                    <DeleteOutlined />
                  </IconButton>
                </Tooltip>
              }
              sx={{ pr: 6 }}
            >
              <ListItemAvatar sx={{ minWidth: 52 }}>
                <VetAvatar name={vet.name} picture={vetPicture(vet)} />
              </ListItemAvatar>
              <ListItemText
                primary={
                  <Link component={RouterLink} to={withId(paths.clientVetInfo, vet.id)} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {vet.name}
                  </Link>
                }
                secondary={
                  vet.phoneNumber && (
                    <Link href={telHref(vet.phoneNumber)} sx={{ whiteSpace: 'nowrap' }}>
                      {formatPhone(vet.phoneNumber)}
                    </Link>
                  )
                }
              />
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmDialog
        open={removing?.open ?? false}
        text={removing ? `Remove ${removing.vet.name} from ${pet.name}'s vets?` : ''}
        confirmLabel="Remove"
        pending={remove.isPending}
        onCancel={close}
        onConfirm={() => removing && confirmRemove(removing.vet)}
      />
    </SectionCard>
  );
}
