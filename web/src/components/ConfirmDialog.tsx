import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { useId } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  /** The question, which also names the dialog. */
  text: string;
  confirmLabel?: string;
  /** Red for a removal (the default); another colour for a confirmation that removes nothing. */
  confirmColor?: 'error' | 'primary' | 'success';
  /** While the confirmed action runs: Confirm spins and Cancel waits. */
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before something is removed (spec 2.3: Cancel and Confirm), or done for good. */
export function ConfirmDialog({ open, text, confirmLabel = 'Confirm', confirmColor = 'error', pending, onCancel, onConfirm }: ConfirmDialogProps) {
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
        <Button variant="contained" color={confirmColor} loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
