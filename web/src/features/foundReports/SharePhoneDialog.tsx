import { zodResolver } from '@hookform/resolvers/zod';
import { finderNoteMax, formatPhone, messages, paths, sharePhoneSchema, type FoundReportDetail } from '@petreg/contract';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link, Stack } from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { FormTextField } from '../../components/FormTextField';
import { useSession } from '../auth/session';
import { useSharePhone } from './api';

/** Share my phone with this finder: the owner's number and a line, texted (or e-mailed) to the finder once. */
export function SharePhoneDialog({ report, onClose }: { report: FoundReportDetail; onClose: () => void }) {
  const { user } = useSession();
  const share = useSharePhone(report.id);
  const { control, handleSubmit } = useForm({ resolver: zodResolver(sharePhoneSchema), defaultValues: { note: '' } });
  const note = useWatch({ control, name: 'note' });
  // Only a number its owner proved with a texted code is sent to a finder.
  const phone = user?.data.phoneVerified ? user.data.phoneNumber : null;
  const by = report.finderPhone ? 'a text' : 'an e-mail';

  const submit = handleSubmit((input) =>
    share.mutate(input, {
      onSuccess: () => {
        toast(messages.phoneShared, { variant: 'success' });
        onClose();
      },
    }),
  );

  return (
    <Dialog open onClose={onClose} aria-labelledby="share-phone-title" fullWidth maxWidth="sm">
      <Stack
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="share-phone-title">Share my phone with this finder</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            {phone ? (
              <DialogContentText>
                {report.finderName} gets {by} with your phone number, {formatPhone(phone)}, your first name and your note. Nothing else about you is
                shared.
              </DialogContentText>
            ) : (
              <Alert severity="warning">
                {messages.phoneNeededToShare}{' '}
                <Link component={RouterLink} to={paths.clientProfile}>
                  Go to your profile
                </Link>
              </Alert>
            )}
            <FormTextField
              control={control}
              name="note"
              label="A line for the finder (optional)"
              placeholder="Thank you! I can come by at 6 pm."
              helperText={`${note?.length ?? 0}/${finderNoteMax}`}
              slotProps={{ htmlInput: { maxLength: finderNoteMax } }}
              disabled={!phone}
            />
            {share.isError && <Alert severity="error">{firstError(share.error, messages.genericError)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={share.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={share.isPending} disabled={!phone}>
            Share my phone
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
