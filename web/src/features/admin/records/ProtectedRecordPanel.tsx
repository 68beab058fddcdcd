import { zodResolver } from '@hookform/resolvers/zod';
import { formatDateTime, messages, protectedRecordSchema, type AdminUser, type ProtectedRecordInput, type ProtectedRecordUpdate } from '@petreg/contract';
import { GppGood, Shield } from '@mui/icons-material';
import { Alert, AlertTitle, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Paper, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { FormTextField } from '../../../components/FormTextField';
import { useSetRecordProtection } from './api';

const hides = "Finders and professionals see no owner name, place, photo or contact on any of this owner's pets, whatever the owner chose to share; they reach the owner through Reach the owner.";

/**
 * The owner's protected-record flag on the pet record (issue 20): what it hides, who set it, when and why,
 * and the dialog that sets or clears it with a reason.
 */
export function ProtectedRecordPanel({ user }: { user: AdminUser }) {
  const [changing, setChanging] = useState(false);
  const { protection } = user.data;
  const action = (
    <Button
      variant="outlined"
      color={protection ? 'inherit' : 'primary'}
      startIcon={protection ? undefined : <Shield />}
      onClick={() => setChanging(true)}
      sx={{ flexShrink: 0 }}
    >
      {protection ? 'Remove protection' : 'Protect record'}
    </Button>
  );

  return (
    <>
      {protection ? (
        // The button below the words, not as the alert's action: beside them it would push past a narrow screen.
        <Alert severity="warning" icon={<GppGood />} sx={{ mb: 3 }} aria-label="Protected record">
          <AlertTitle>Protected record</AlertTitle>
          <Typography variant="body2">{hides}</Typography>
          <Typography variant="body2" sx={{ mt: 1 }}>
            Set by {protection.by || 'an administrator'} on {formatDateTime(protection.since)}:
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', fontStyle: 'italic', overflowWrap: 'anywhere' }}>
            {protection.reason}
          </Typography>
          <Box sx={{ mt: 1.5 }}>{action}</Box>
        </Alert>
      ) : (
        <Paper variant="outlined" sx={{ p: 2, mb: 3 }} aria-label="Protected record">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
            <Box>
              <Typography sx={{ fontWeight: 600 }}>Not a protected record</Typography>
              <Typography variant="body2" color="text.secondary">
                For a dispute or a domestic-abuse case, protect the owner's record: {hides.charAt(0).toLowerCase()}
                {hides.slice(1)}
              </Typography>
            </Box>
            {action}
          </Stack>
        </Paper>
      )}
      {changing && <ProtectionDialog user={user} onClose={() => setChanging(false)} />}
    </>
  );
}

function ProtectionDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const titleId = useId();
  const protect = user.data.protection === null;
  const change = useSetRecordProtection(user.id);
  const { control, handleSubmit } = useForm<ProtectedRecordInput, unknown, ProtectedRecordUpdate>({
    resolver: zodResolver(protectedRecordSchema),
    defaultValues: { protect, reason: '' },
  });

  const onSubmit = handleSubmit((input) =>
    change.mutate(input, {
      onSuccess: () => {
        toast(protect ? messages.recordProtected : messages.recordProtectionCleared, { variant: 'success' });
        onClose();
      },
    }),
  );

  return (
    <Dialog open onClose={change.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>{protect ? 'Protect this record' : 'Remove the protection'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              {protect
                ? `${hides} The owner sees on their profile that the record is protected, not the reason.`
                : "The owner's name, state and photo show again on their pets' profiles, and their contact as the owner chose to share it."}
            </DialogContentText>
            {change.isError && <Alert severity="error">{firstError(change.error, messages.genericError)}</Alert>}
            <FormTextField
              control={control}
              name="reason"
              label={protect ? 'Why is the record protected?' : 'Why is the protection removed?'}
              multiline
              minRows={3}
              autoFocus
              helperText="Kept on the record and in the audit log"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color={protect ? 'primary' : 'warning'} loading={change.isPending}>
            {protect ? 'Protect record' : 'Remove protection'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
