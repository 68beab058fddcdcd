import { formatPhone, messages, ui, type BackupContact } from '@petreg/contract';
import { ContactPhone, DeleteOutlined, EditOutlined } from '@mui/icons-material';
import {
  Avatar,
  Box,
  Button,
  Chip,
  IconButton,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  Stack,
  Tooltip,
} from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DelayedProgress } from '../../components/DelayedProgress';
import { EmptyState } from '../../components/EmptyState';
import { SectionCard } from '../../components/SectionCard';
import { useBackupContacts, useDeleteBackupContact, useResendContactConfirmation } from './api';
import { BackupContactDialog } from './BackupContactDialog';

/** Backup Contacts on the dashboard (spec 2.3): people to call when the owner cannot be reached. */
export function BackupContactsCard() {
  const contacts = useBackupContacts();
  const remove = useDeleteBackupContact();
  const resend = useResendContactConfirmation();
  /** undefined: no dialog; null: a new contact; otherwise the contact being edited. */
  const [editing, setEditing] = useState<BackupContact | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<BackupContact | null>(null);

  const confirmDelete = (contact: BackupContact) =>
    remove.mutate(contact.id, {
      onSuccess: () => toast(messages.recordDeleted, { variant: 'success' }),
      // Spec 8: a failed delete is not reported.
      onError: (error) => console.warn('Deleting the backup contact failed.', error),
      onSettled: () => setDeleting(null),
    });

  const askAgain = (contact: BackupContact) =>
    resend.mutate(contact.id, {
      onSuccess: () => toast(messages.backupContactConfirmationSent, { variant: 'success' }),
      onError: (error) => toast(firstError(error, messages.genericError), { variant: 'error' }),
    });

  return (
    <SectionCard
      title="Backup Contacts"
      action={
        <Button variant="contained" size="small" onClick={() => setEditing(null)}>
          Add a contact
        </Button>
      }
    >
      {contacts.isFetching && <DelayedProgress delayMs={ui.backupContactLoaderDelayMs} label="Loading backup contacts" />}
      {contacts.data?.length === 0 && (
        <EmptyState icon={<ContactPhone />} title="No backup contacts yet" hint="Someone we can call when we cannot reach you." />
      )}
      {contacts.data && contacts.data.length > 0 && (
        <List aria-label="Backup contacts">
          {contacts.data.map((contact) => (
            <ListItem
              key={contact.id}
              divider
              secondaryAction={
                <Stack direction="row" spacing={0.5}>
                  <Tooltip title="Edit">
                    <IconButton aria-label={`Edit ${contact.name}`} onClick={() => setEditing(contact)}>
                      <EditOutlined />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title="Delete">
                    <IconButton aria-label={`Delete ${contact.name}`} edge="end" onClick={() => setDeleting(contact)}>
                      <DeleteOutlined />
                    </IconButton>
                  </Tooltip>
                </Stack>
              }
              sx={{ pr: 12 }}
            >
              <ListItemAvatar>
                <Avatar sx={{ bgcolor: 'primary.light' }}>{contact.name.charAt(0).toUpperCase()}</Avatar>
              </ListItemAvatar>
              <ListItemText
                primary={contact.name}
                slotProps={{ secondary: { component: 'div' } }}
                secondary={
                  <>
                    {formatPhone(contact.phoneNumber)}
                    {!contact.phoneConfirmed && (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
                        <Tooltip title="We texted this number: the contact confirms by replying YES or with the link in the text.">
                          <Chip size="small" variant="outlined" color="warning" label="Not confirmed" />
                        </Tooltip>
                        <Button
                          size="small"
                          aria-label={`Resend the confirmation text to ${contact.name}`}
                          onClick={() => askAgain(contact)}
                          disabled={resend.isPending}
                        >
                          Resend
                        </Button>
                      </Box>
                    )}
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}

      {editing !== undefined && (
        <BackupContactDialog key={editing?.id ?? 'new'} contact={editing} onClose={() => setEditing(undefined)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        text={messages.deleteConfirm}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && confirmDelete(deleting)}
      />
    </SectionCard>
  );
}
