import { zodResolver } from '@hookform/resolvers/zod';
import { formatDate, messages, petTransferDialogSchema, type OutgoingPetTransfer, type PetTransferDialogInput } from '@petreg/contract';
import { SwapHoriz } from '@mui/icons-material';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormTextField } from '../../components/FormTextField';
import { SectionCard } from '../../components/SectionCard';
import { useCancelTransfer, usePetTransfers, useStartTransfer } from './api';

/** The pet page's transfer: an offer waiting (with Cancel), or the button that offers the pet to a new owner. */
export function PetTransferCard({ petId, petName }: { petId: number; petName: string }) {
  const transfers = usePetTransfers();
  const cancel = useCancelTransfer();
  const [offering, setOffering] = useState(false);
  const [canceling, setCanceling] = useState<OutgoingPetTransfer | null>(null);
  const pending = transfers.data?.outgoing.find((t) => t.petId === petId);

  return (
    <SectionCard title="Transfer to a new owner" avatar={<SwapHoriz color="primary" />}>
      {pending ? (
        <Stack spacing={1.5}>
          <Alert severity="info">
            Waiting for <strong style={{ overflowWrap: 'anywhere' }}>{pending.toEmail}</strong> to accept, until {formatDate(pending.expiresAt)}.{' '}
            {petName} stays yours until then.
          </Alert>
          <Box>
            <Button color="error" variant="outlined" size="small" onClick={() => setCanceling(pending)}>
              Cancel transfer
            </Button>
          </Box>
        </Stack>
      ) : (
        <Stack spacing={1.5}>
          <Typography variant="body2">
            Rehoming {petName}? The new owner gets an email and has 7 days to accept. The microchip, protection and history move to them; your
            backup contacts and vets stay yours. Free of charge.
          </Typography>
          <Box>
            <Button variant="outlined" size="small" onClick={() => setOffering(true)} disabled={!transfers.isSuccess}>
              Transfer {petName}
            </Button>
          </Box>
        </Stack>
      )}
      <OfferDialog petId={petId} petName={petName} open={offering} onClose={() => setOffering(false)} />
      <ConfirmDialog
        open={canceling !== null}
        text={`Cancel the transfer of ${petName} to ${canceling?.toEmail ?? ''}?`}
        confirmLabel="Cancel transfer"
        pending={cancel.isPending}
        onCancel={() => setCanceling(null)}
        onConfirm={() =>
          cancel.mutate(canceling!.id, {
            onSuccess: (answer) => toast(answer.message, { variant: 'success' }),
            onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
            onSettled: () => setCanceling(null),
          })
        }
      />
    </SectionCard>
  );
}

/** The new owner's e-mail, twice, as the administrator's transfer dialog asks it. */
function OfferDialog({ petId, petName, open, onClose }: { petId: number; petName: string; open: boolean; onClose: () => void }) {
  const titleId = useId();
  const start = useStartTransfer(petId);
  const { control, handleSubmit, reset } = useForm<PetTransferDialogInput>({
    resolver: zodResolver(petTransferDialogSchema),
    defaultValues: { email: '', confirmEmail: '' },
  });
  const close = () => {
    reset();
    start.reset();
    onClose();
  };
  const onSubmit = handleSubmit(({ email }) =>
    start.mutate(
      { email },
      {
        onSuccess: (answer) => {
          toast(answer.message, { variant: 'success' });
          close();
        },
      },
    ),
  );

  return (
    <Dialog open={open} onClose={start.isPending ? undefined : close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>Transfer {petName}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              We email the new owner an invitation naming {petName} and your first name. {petName} moves only when they accept; you can cancel
              until then.
            </DialogContentText>
            {start.isError && <Alert severity="error">{firstError(start.error, messages.genericError)}</Alert>}
            <FormTextField control={control} name="email" label="New owner's email" type="email" autoComplete="off" autoFocus />
            <FormTextField control={control} name="confirmEmail" label="Confirm new owner's email" type="email" autoComplete="off" />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={start.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={start.isPending}>
            Send offer
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
