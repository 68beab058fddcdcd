import { zodResolver } from '@hookform/resolvers/zod';
import { isSameEmail, messages, profileFormSchema, ui, type ProfileInput, type User } from '@petreg/contract';
import { Edit } from '@mui/icons-material';
import { Alert, Box, Button, Card, CardContent, CardHeader, Grid, LinearProgress } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { FormTextField } from '../../components/FormTextField';
import { ImageField } from '../../components/ImageField';
import { PasswordField } from '../../components/PasswordField';
import noPhoto from '../../components/images/person.svg';
import { useSession } from '../auth/session';
import { accountFormValues, AddressFields, NameFields, NotificationSwitches } from './AccountFields';
import { currentUserKey, useUpdateProfile, type ProfileUpdate } from './api';
import { PhoneVerification } from './PhoneVerification';
import { EditActions } from '../../components/EditActions';

function formValues(user: User): ProfileInput {
  return {
    ...accountFormValues(user),
    // The stored photo's name keeps it; a newly chosen one is sent as a data URL.
    photo: user.data.photoUrl?.split('/').at(-1) ?? null,
    currentPassword: '',
  };
}

/** "Your Profile": read-only until Edit; Cancel puts back what is saved (spec 2.6). */
export function ProfileCard({ user }: { user: User }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const update = useUpdateProfile(user.id);
  const [editing, setEditing] = useState(false);
  const [settling, setSettling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const schema = useMemo(() => profileFormSchema(user.data.email), [user.data.email]);
  const { control, handleSubmit, reset } = useForm({
    resolver: zodResolver(schema),
    defaultValues: formValues(user),
  });
  const [notifyByEmail, notifyBySms, email] = useWatch({ control, name: ['notifyByEmail', 'notifyBySms', 'email'] });
  // A new e-mail asks for the password, and waits for the link mailed to it.
  const changingEmail = editing && !isSameEmail(email, user.data.email);

  // Spec 4: a loader shows for 2 seconds after a save.
  useEffect(() => {
    if (!settling) return;
    const timer = window.setTimeout(() => setSettling(false), ui.profileLoaderMs);
    return () => window.clearTimeout(timer);
  }, [settling]);

  const showUser = (saved: User) => {
    session.updateUser(saved);
    queryClient.setQueryData(currentUserKey, saved);
  };

  const cancel = () => {
    reset(formValues(user));
    setError(null);
    setEditing(false);
  };

  const onSubmit = handleSubmit(({ currentPassword, ...profile }: ProfileUpdate) => {
    setError(null);
    setNotice(null);
    const newEmail = !isSameEmail(profile.email, user.data.email);
    update.mutate(newEmail ? { ...profile, currentPassword } : profile, {
      onSuccess: (saved) => {
        const newPhone = saved.data.phoneNumber !== null && saved.data.phoneNumber !== user.data.phoneNumber;
        setNotice([newEmail && messages.emailChangeSent, newPhone && messages.phoneCodeSent].filter(Boolean).join(' ') || null);
        showUser(saved);
        reset(formValues(saved));
        setEditing(false);
        setSettling(true);
        toast(messages.profileUpdated, { variant: 'success' });
      },
      onError: (failure) => setError(firstError(failure, messages.genericError)),
    });
  });

  const readOnly = !editing || update.isPending;

  return (
    <Card component="section" aria-labelledby="your-profile-title">
      {settling ? <LinearProgress aria-label="Saving profile" /> : <Box sx={{ height: 4 }} />}
      <CardHeader
        title="Your Profile"
        slotProps={{ title: { variant: 'h3', component: 'h2', id: 'your-profile-title' } }}
        action={
          !editing && (
            <Button startIcon={<Edit />} onClick={() => setEditing(true)} disabled={settling}>
              Edit
            </Button>
          )
        }
      />
      <Box component="form" onSubmit={onSubmit} noValidate>
        <CardContent>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }} onClose={() => setError(null)}>
              {error}
            </Alert>
          )}
          {notice && (
            <Alert severity="info" sx={{ mb: 2 }} onClose={() => setNotice(null)}>
              {notice}
            </Alert>
          )}
          <Grid container spacing={2}>
            <Grid size={12}>
              <Controller
                control={control}
                name="photo"
                render={({ field: { value, onChange } }) => (
                  <ImageField
                    label="Profile photo"
                    value={value}
                    onChange={onChange}
                    previewSrc={value && user.data.photoUrl ? user.data.photoUrl : noPhoto}
                    disabled={readOnly}
                  />
                )}
              />
            </Grid>
            <NameFields control={control} disabled={readOnly} autoFill />
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField
                control={control}
                name="email"
                label="Email"
                type="email"
                autoComplete="email"
                disabled={readOnly || !notifyByEmail}
                helperText={editing && !notifyByEmail ? 'Turn on email notifications to change it' : undefined}
              />
            </Grid>
            {changingEmail && (
              <Grid size={{ xs: 12, sm: 6 }}>
                <PasswordField
                  control={control}
                  name="currentPassword"
                  label="Current Password"
                  autoComplete="current-password"
                  helperText="Needed to change your email"
                  disabled={update.isPending}
                />
              </Grid>
            )}
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField
                control={control}
                name="phoneNumber"
                label="Phone Number"
                type="tel"
                autoComplete="tel"
                disabled={readOnly || !notifyBySms}
                helperText={editing && !notifyBySms ? 'Turn on SMS notifications to change it' : undefined}
              />
            </Grid>
            {!editing && user.data.phoneNumber && (
              <Grid size={12}>
                <PhoneVerification user={user} onVerified={showUser} />
              </Grid>
            )}
            <AddressFields control={control} disabled={readOnly} autoFill />
            <NotificationSwitches control={control} disabled={readOnly} />
          </Grid>
        </CardContent>
        {editing && <EditActions onCancel={cancel} saving={update.isPending} />}
      </Box>
    </Card>
  );
}
