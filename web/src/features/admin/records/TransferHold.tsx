import { zodResolver } from '@hookform/resolvers/zod';
import { formatDateTime, messages, petHoldSchema, type PetHoldInput, type PetTransferHold } from '@petreg/contract';
import { Alert, AlertTitle, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { FormTextField } from '../../../components/FormTextField';
import { useTransferHold } from './api';

/** The dispute hold on the record: who set it, when and why, with Lift hold. */
export function TransferHoldAlert({ petId, hold }: { petId: number; hold: PetTransferHold }) {
  const { lift } = useTransferHold(petId);
  return (
    <Alert
      severity="warning"
      sx={{ mb: 3 }}
      action={
        <Button
          color="inherit"
          size="small"
          sx={{ whiteSpace: 'nowrap' }}
          loading={lift.isPending}
          onClick={() =>
            lift.mutate(undefined, {
              onSuccess: (answer) => toast(answer.message, { variant: 'success' }),
              onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
            })
          }
        >
          Lift hold
        </Button>
      }
    >
      <AlertTitle>Transfers on hold</AlertTitle>
      Set by {hold.by} on {formatDateTime(hold.at)}: {hold.reason}. The owner cannot transfer this pet; an administrator&apos;s transfer asks to
      be confirmed.
    </Alert>
  );
}

/** Puts the pet's transfers on hold for a dispute, with the reason the record will show. */
export function HoldTransfersDialog({ petId, petName, open, onClose }: { petId: number; petName: string; open: boolean; onClose: () => void }) {
  const titleId = useId();
  const { set } = useTransferHold(petId);
  const { control, handleSubmit, reset } = useForm<PetHoldInput>({ resolver: zodResolver(petHoldSchema), defaultValues: { reason: '' } });
  const close = () => {
    reset();
    set.reset();
    onClose();
  };
  const onSubmit = handleSubmit((hold) =>
    set.mutate(hold, {
      onSuccess: (answer) => {
        toast(answer.message, { variant: 'success' });
        close();
      },
    }),
  );
  return (
    <Dialog open={open} onClose={set.isPending ? undefined : close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>Dispute hold on {petName}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              While the hold is on, the owner cannot transfer {petName} and an offer waiting cannot be accepted. The record shows who set it and why.
            </DialogContentText>
            {set.isError && <Alert severity="error">{firstError(set.error, messages.genericError)}</Alert>}
            <FormTextField control={control} name="reason" label="Reason" autoComplete="off" autoFocus multiline minRows={2} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={set.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="warning" loading={set.isPending}>
            Set hold
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
