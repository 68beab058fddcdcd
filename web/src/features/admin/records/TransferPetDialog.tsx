import { zodResolver } from '@hookform/resolvers/zod';
import { formatDateTime, messages, transferDialogSchema, type AdminPetSupport, type PetTransferHold, type TransferDialogInput } from '@petreg/contract';
import { Alert, AlertTitle, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { FormTextField } from '../../../components/FormTextField';
import { useTransferPet } from './api';

interface TransferPetDialogProps {
  petId: number;
  petName: string;
  /** The pet's open lost pet alert, when it has one: the transfer asks to be confirmed first. */
  lost: AdminPetSupport['lost'];
  /** The pet's dispute hold, when it has one: the transfer asks to be confirmed first, too. */
  hold: PetTransferHold | null;
  open: boolean;
  onClose: () => void;
}

/**
 * Spec 2.7: the new owner's e-mail, twice; on a match the transfer is requested (spec 4). A lost pet
 * (an open alert, known to the page or answered by the server) takes a second step: the administrator
 * confirms that the pet and its alert go to the new owner; so does a pet on a dispute hold.
 */
export function TransferPetDialog({ petId, petName, lost, hold, open, onClose }: TransferPetDialogProps) {
  const titleId = useId();
  const transfer = useTransferPet(petId);
  const [confirming, setConfirming] = useState(false);
  const { control, handleSubmit, reset } = useForm<TransferDialogInput>({
    resolver: zodResolver(transferDialogSchema),
    defaultValues: { email: '', confirmEmail: '' },
  });

  const close = () => {
    reset();
    transfer.reset();
    setConfirming(false);
    onClose();
  };

  const onSubmit = handleSubmit(({ email }) => {
    if ((lost || hold) && !confirming) {
      setConfirming(true);
      return;
    }
    // A promise, not mutate's callbacks: the page reloads the new owner meanwhile, and callbacks of a dialog
    // unmounted by that reload would never run.
    transfer.mutateAsync({ Email: email, confirmOpenAlert: confirming, confirmHold: confirming }).then(
      (result) => {
        toast(result.message, { variant: 'success' });
        close();
      },
      (failure: unknown) => {
        // An alert opened (or a hold set) since the page loaded: the server asks for the same confirmation.
        if (failure instanceof ApiError && (failure.errors.includes(messages.transferOpenAlert) || failure.errors.includes(messages.adminTransferHeld))) {
          setConfirming(true);
          return;
        }
        // Spec 8: a transfer failure shows the pet's generic message; the dialog keeps the reason, beside
        // the e-mail it concerns (a confirmed transfer goes back to it).
        setConfirming(false);
        toast(messages.genericError, { variant: 'error' });
      },
    );
  });

  return (
    <Dialog open={open} onClose={transfer.isPending ? undefined : close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>Transfer {petName}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            {confirming && hold && (
              <Alert severity="warning">
                <AlertTitle>Transfers of {petName} are on hold</AlertTitle>
                Set by {hold.by} on {formatDateTime(hold.at)}: {hold.reason}. Transfer anyway?
              </Alert>
            )}
            {confirming && lost && (
              <Alert severity="warning">
                <AlertTitle>{petName} is reported lost</AlertTitle>
                {`Missing since ${formatDateTime(lost.missingDate)}, last seen in ${lost.place ?? lost.zipCode}. `}
                The open alert moves with {petName} to the new owner, who will be the one finders and professionals reach. Transfer
                anyway?
              </Alert>
            )}
            {/* Neither known to the page: the server's own words. */}
            {confirming && !lost && !hold && <Alert severity="warning">{firstError(transfer.error, messages.transferOpenAlert)}</Alert>}
            {!confirming && (
              <DialogContentText>
                The pet, its microchip and its protection move to the account of this email; a new account is invited to set a
                password. Both owners are told by email.
              </DialogContentText>
            )}
            {transfer.isError && !confirming && <Alert severity="error">{firstError(transfer.error, messages.genericError)}</Alert>}
            {/* Kept mounted through the confirm step: the form still holds the e-mail it confirms. */}
            <Stack spacing={2} sx={{ display: confirming ? 'none' : 'flex' }}>
              <FormTextField control={control} name="email" label="New owner's email" type="email" autoComplete="off" autoFocus />
              <FormTextField control={control} name="confirmEmail" label="Confirm new owner's email" type="email" autoComplete="off" />
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          {confirming ? (
            <Button onClick={() => setConfirming(false)} disabled={transfer.isPending}>
              Back
            </Button>
          ) : (
            <Button onClick={close} disabled={transfer.isPending}>
              Cancel
            </Button>
          )}
          <Button type="submit" variant="contained" color={confirming ? 'warning' : 'primary'} loading={transfer.isPending}>
            {confirming ? 'Transfer anyway' : 'Transfer'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
