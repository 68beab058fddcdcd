import { zodResolver } from '@hookform/resolvers/zod';
import { backupContactSchema, formatPhone, messages, type BackupContact } from '@petreg/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { toast } from '../../app/toast';
import { FormTextField } from '../../components/FormTextField';
import { useSaveBackupContact } from './api';

interface BackupContactDialogProps {
  /** The contact to edit, or null for a new one. */
  contact: BackupContact | null;
  onClose: () => void;
}

/** Adds or edits a backup contact (spec 2.3): a name and a phone number. */
export function BackupContactDialog({ contact, onClose }: BackupContactDialogProps) {
  const save = useSaveBackupContact();
  const { control, handleSubmit, getValues } = useForm({
    resolver: zodResolver(backupContactSchema),
    defaultValues: { id: contact?.id, name: contact?.name ?? '', phoneNumber: formatPhone(contact?.phoneNumber) },
  });

  const submit = handleSubmit((input) =>
    save.mutate(input, {
      onSuccess: () => toast(messages.recordSaved, { variant: 'success' }),
      // Spec 8: a failed save is not reported.
      onError: (error) => console.warn('Saving the backup contact failed.', error),
      onSettled: onClose,
    }),
  );

  // Spec 5: saving with an empty name simply closes the dialog.
  const onSave = () => (getValues('name').trim() ? submit() : onClose());

  return (
    <Dialog open onClose={onClose} aria-labelledby="contact-dialog-title" fullWidth maxWidth="xs">
      <Stack
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void onSave();
        }}
      >
        <DialogTitle id="contact-dialog-title">{contact ? 'Edit contact' : 'Add a contact'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField control={control} name="name" label="Name" autoComplete="name" autoFocus />
            <FormTextField control={control} name="phoneNumber" label="Phone Number" type="tel" autoComplete="tel" />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
