import { zodResolver } from '@hookform/resolvers/zod';
import { adminUserSchema, formatDate, messages, type AdminUser, type AdminUserInput, type AdminUserUpdate } from '@petreg/contract';
import { Edit, Person } from '@mui/icons-material';
import { Box, Button, Card, CardContent, CardHeader, Chip, Grid, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { EditActions } from '../../../components/EditActions';
import { FormCheckbox } from '../../../components/FormCheckbox';
import { FormTextField } from '../../../components/FormTextField';
import { accountFormValues, AddressFields, NameFields, NotificationSwitches } from '../../profile/AccountFields';
import { useUpdateAdminUser } from './api';

/** When each contact was last confirmed (a mailed link, a texted code, or the owner's "still right"), and a bouncing e-mail. */
function ContactsConfirmed({ user }: { user: AdminUser }) {
  const { emailConfirmedAt, phoneConfirmedAt, emailBounced } = user.data.contactCheck;
  const when = (at: string | null) => (at ? formatDate(at) : 'never');
  return (
    <Stack spacing={0.5} sx={{ mb: 2 }} aria-label="Contacts last confirmed">
      <Typography variant="body2">
        E-mail last confirmed: {when(emailConfirmedAt)}
        {emailBounced && <Chip size="small" color="error" variant="outlined" label="Bounces" sx={{ ml: 1 }} />}
      </Typography>
      <Typography variant="body2">Phone last confirmed: {user.data.phoneNumber ? when(phoneConfirmedAt) : 'no phone number'}</Typography>
      {user.data.contactCheck.stale && (
        <Typography variant="body2" color="warning.main">
          Nothing confirmed in over a year: the owner's dashboard asks them to check.
        </Typography>
      )}
    </Stack>
  );
}

function formValues(user: AdminUser): AdminUserInput {
  return { ...accountFormValues(user), isActive: user.data.isActive };
}

/** The owner's card of admin/pet/:id: read-only until Edit; Cancel puts back what is saved (spec 2.7). */
export function AdminUserCard({ user }: { user: AdminUser }) {
  const update = useUpdateAdminUser(user.id);
  const [editing, setEditing] = useState(false);
  const { control, handleSubmit, reset } = useForm<AdminUserInput, unknown, AdminUserUpdate>({
    resolver: zodResolver(adminUserSchema),
    defaultValues: formValues(user),
  });

  const cancel = () => {
    reset(formValues(user));
    setEditing(false);
  };

  const onSubmit = handleSubmit((input) =>
    update.mutate(input, {
      onSuccess: (saved) => {
        reset(formValues(saved));
        setEditing(false);
        toast(messages.userUpdated, { variant: 'success' });
      },
      // Spec 8: the first error, or No record found.
      onError: (failure) =>
        toast(failure instanceof ApiError && failure.status === 404 ? messages.noRecordFound : firstError(failure, messages.genericError), {
          variant: 'error',
        }),
    }),
  );

  const readOnly = !editing || update.isPending;

  return (
    <Card component="section" aria-labelledby="owner-record-title">
      <CardHeader
        avatar={<Person color="primary" />}
        title="User Profile"
        subheader={`User #${user.id}`}
        slotProps={{ title: { variant: 'h3', component: 'h2', id: 'owner-record-title' } }}
        action={
          !editing && (
            <Button startIcon={<Edit />} onClick={() => setEditing(true)} aria-label="Edit user">
              Edit
            </Button>
          )
        }
      />
      <Box component="form" onSubmit={onSubmit} noValidate aria-label="User profile">
        <CardContent>
          <ContactsConfirmed user={user} />
          <Grid container spacing={2}>
            <Grid size={12}>
              <FormCheckbox control={control} name="isActive" label="Enabled" variant="switch" disabled={readOnly} />
            </Grid>
            <NameFields control={control} disabled={readOnly} autoFill={false} />
            <Grid size={12}>
              <FormTextField control={control} name="email" label="Email" type="email" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={12}>
              <FormTextField control={control} name="phoneNumber" label="Phone Number" type="tel" autoComplete="off" disabled={readOnly} />
            </Grid>
            <AddressFields control={control} disabled={readOnly} autoFill={false} />
            <NotificationSwitches control={control} disabled={readOnly} />
          </Grid>
        </CardContent>
        {editing && <EditActions onCancel={cancel} saving={update.isPending} />}
      </Box>
    </Card>
  );
}
