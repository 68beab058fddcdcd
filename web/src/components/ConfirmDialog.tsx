import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { useId } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  /** The question, which also names the dialog. */
  text: string;
  confirmLabel?: string;
  /** While the confirmed action runs: Confirm spins and Cancel waits. */
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before something is removed (spec 2.3: Cancel and Confirm). */
export function ConfirmDialog({ open, text, confirmLabel = 'Confirm', pending, onCancel, onConfirm }: ConfirmDialogProps) {
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={textId}>
      <DialogContent>
        <DialogContentText id={textId}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button variant="contained" color="error" loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
