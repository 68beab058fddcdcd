import { formatDate, messages, type IncomingPetTransfer } from '@petreg/contract';
import { Pets } from '@mui/icons-material';
import { Alert, Box, Button, List, ListItem, ListItemText, Stack } from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { AcceptTransferDialog } from './AcceptTransferDialog';
import { useAcceptTransfer, useDeclineTransfer, usePetTransfers } from './api';

/** The dashboard's offers made to the owner's e-mail, each with Accept and Decline; nothing when there are none. */
export function IncomingTransfersCard() {
  const transfers = usePetTransfers();
  const accept = useAcceptTransfer();
  const decline = useDeclineTransfer();
  const [accepting, setAccepting] = useState<IncomingPetTransfer | null>(null);
  const [declining, setDeclining] = useState<IncomingPetTransfer | null>(null);
  const incoming = transfers.data?.incoming ?? [];
  if (incoming.length === 0) return null;

  const failed = (error: unknown) => toast(firstError(error, messages.genericError), { variant: 'error' });

  return (
    <Box component="section" aria-label="Pets offered to you" sx={{ mb: 3 }}>
      <Alert severity="info" icon={<Pets />} role="status" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
        <List disablePadding>
          {incoming.map((offer) => (
            <ListItem key={offer.id} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText
                primary={`${offer.fromFirstName || 'A pet owner'} wants to transfer ${offer.petName} to you`}
                secondary={`${offer.species ? `${offer.species}. ` : ''}Answer by ${formatDate(offer.expiresAt)}.`}
                slotProps={{ primary: { sx: { fontWeight: 600 } } }}
              />
              <Stack direction="row" spacing={1}>
                <Button color="inherit" size="small" onClick={() => setDeclining(offer)}>
                  Decline
                </Button>
                <Button variant="contained" size="small" onClick={() => setAccepting(offer)}>
                  Accept
                </Button>
              </Stack>
            </ListItem>
          ))}
        </List>
        <AcceptTransferDialog
            petName={accepting?.petName ?? ''}
            open={accepting !== null}
            pending={accept.isPending}
            error={accept.isError ? firstError(accept.error, messages.genericError) : null}
            onCancel={() => {
              accept.reset();
              setAccepting(null);
            }}
            onAccept={(shareContactInfo) =>
              accept.mutate(
                { id: accepting!.id, shareContactInfo },
                {
                  onSuccess: (answer) => {
                    toast(answer.message, { variant: 'success' });
                    setAccepting(null);
                  },
                },
              )
            }
          />
        <ConfirmDialog
          open={declining !== null}
          text={`Decline ${declining?.petName ?? ''}? ${declining?.fromFirstName || 'The owner'} will be told.`}
          confirmLabel="Decline"
          pending={decline.isPending}
          onCancel={() => setDeclining(null)}
          onConfirm={() =>
            decline.mutate(declining!.id, {
              onSuccess: (answer) => toast(answer.message, { variant: 'success' }),
              onError: failed,
              onSettled: () => setDeclining(null),
            })
          }
        />
      </Alert>
    </Box>
  );
}
