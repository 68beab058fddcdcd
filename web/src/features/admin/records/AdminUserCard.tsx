import { zodResolver } from '@hookform/resolvers/zod';
import { adminUserSchema, formatPhone, messages, type AdminUser, type AdminUserInput, type AdminUserUpdate } from '@petreg/contract';
import { Edit, Person } from '@mui/icons-material';
import { Box, Button, Card, CardContent, CardHeader, Grid } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { EditActions } from '../../../components/EditActions';
import { FormCheckbox } from '../../../components/FormCheckbox';
import { FormSelect } from '../../../components/FormSelect';
import { FormTextField } from '../../../components/FormTextField';
import { useStates } from '../../profile/api';
import { useUpdateAdminUser } from './api';

function formValues({ data }: AdminUser): AdminUserInput {
  return {
    firstName: data.firstName,
    lastName: data.lastName,
    email: data.email,
    phoneNumber: formatPhone(data.phoneNumber),
    address1: data.address1 ?? '',
    address2: data.address2 ?? '',
    city: data.city ?? '',
    stateId: data.stateId,
    zipcode: data.zipcode ?? '',
    notifyByEmail: data.notifyByEmail,
    notifyBySms: data.notifyBySms,
    isActive: data.isActive,
  };
}

/** The owner's card of admin/pet/:id: read-only until Edit; Cancel puts back what is saved (spec 2.7). */
export function AdminUserCard({ user }: { user: AdminUser }) {
  const update = useUpdateAdminUser(user.id);
  const states = useStates();
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
          <Grid container spacing={2}>
            <Grid size={12}>
              <FormCheckbox control={control} name="isActive" label="Enabled" variant="switch" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={control} name="firstName" label="First Name" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={control} name="lastName" label="Last Name" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={12}>
              <FormTextField control={control} name="email" label="Email" type="email" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={12}>
              <FormTextField control={control} name="phoneNumber" label="Phone Number" type="tel" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={control} name="address1" label="Address 1" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={control} name="address2" label="Address 2" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 5 }}>
              <FormTextField control={control} name="city" label="City" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 7, sm: 4 }}>
              <FormSelect control={control} name="stateId" label="State" options={states.data} emptyOption="None" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 5, sm: 3 }}>
              <FormTextField control={control} name="zipcode" label="Zip Code" autoComplete="off" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormCheckbox control={control} name="notifyByEmail" label="Email notifications" variant="switch" disabled={readOnly} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormCheckbox control={control} name="notifyBySms" label="SMS notifications" variant="switch" disabled={readOnly} />
            </Grid>
          </Grid>
        </CardContent>
        {editing && <EditActions onCancel={cancel} saving={update.isPending} />}
      </Box>
    </Card>
  );
}
