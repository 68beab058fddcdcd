import { Button, CardActions } from '@mui/material';

/** Cancel and Save under a card in edit mode (spec 2.4, 2.6: Cancel puts back what is saved). */
export function EditActions({ onCancel, saving }: { onCancel: () => void; saving: boolean }) {
  return (
    <CardActions sx={{ justifyContent: 'flex-end', px: 2, pb: 2 }}>
      <Button onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" loading={saving}>
        Save
      </Button>
    </CardActions>
  );
}
