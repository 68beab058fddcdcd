import { zodResolver } from '@hookform/resolvers/zod';
import { messages, transferDialogSchema, type TransferDialogInput } from '@petreg/contract';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { FormTextField } from '../../../components/FormTextField';
import { useTransferPet } from './api';

interface TransferPetDialogProps {
  petId: number;
  petName: string;
  open: boolean;
  onClose: () => void;
}

/** Spec 2.7: the new owner's e-mail, twice; on a match the transfer is requested (spec 4). */
export function TransferPetDialog({ petId, petName, open, onClose }: TransferPetDialogProps) {
  const titleId = useId();
  const transfer = useTransferPet(petId);
  const { control, handleSubmit, reset } = useForm<TransferDialogInput>({
    resolver: zodResolver(transferDialogSchema),
    defaultValues: { email: '', confirmEmail: '' },
  });

  const close = () => {
    reset();
    transfer.reset();
    onClose();
  };

  const onSubmit = handleSubmit(({ email }) =>
    transfer.mutate(email, {
      onSuccess: (result) => {
        toast(result.message, { variant: 'success' });
        close();
      },
      // Spec 8: a transfer failure shows the pet's generic message; the dialog keeps the reason.
      onError: () => toast(messages.genericError, { variant: 'error' }),
    }),
  );

  return (
    <Dialog open={open} onClose={transfer.isPending ? undefined : close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>Transfer {petName}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              The pet, its microchip and its protection move to the account of this email; a new account is invited to set a
              password. Both owners are told by email.
            </DialogContentText>
            {transfer.isError && <Alert severity="error">{firstError(transfer.error, messages.genericError)}</Alert>}
            <FormTextField control={control} name="email" label="New owner's email" type="email" autoComplete="off" autoFocus />
            <FormTextField control={control} name="confirmEmail" label="Confirm new owner's email" type="email" autoComplete="off" />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={transfer.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={transfer.isPending}>
            Transfer
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
