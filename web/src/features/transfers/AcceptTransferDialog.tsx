import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Stack } from '@mui/material';
import { useId, useState } from 'react';

interface AcceptTransferDialogProps {
  petName: string;
  open: boolean;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onAccept: (shareContactInfo: boolean) => void;
}

/** Accepting a pet: the new owner says whether their phone shows on its public profile when it is lost. */
export function AcceptTransferDialog({ petName, open, pending, error, onCancel, onAccept }: AcceptTransferDialogProps) {
  const titleId = useId();
  const [share, setShare] = useState(true);
  return (
    <Dialog open={open} onClose={pending ? undefined : onCancel} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Accept {petName}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            {petName}&apos;s registration, microchip and protection move to your account. The previous owner&apos;s vets and backup contacts stay
            with them: add your own afterwards.
          </DialogContentText>
          <FormControlLabel
            control={<Checkbox checked={share} onChange={(_, checked) => setShare(checked)} />}
            label={`Show my phone number on ${petName}'s public profile when ${petName} is lost`}
          />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button variant="contained" loading={pending} onClick={() => onAccept(share)}>
          Accept {petName}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
