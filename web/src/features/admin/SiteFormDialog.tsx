import { zodResolver } from '@hookform/resolvers/zod';
import { adminSiteSchema, formatPhone, messages, siteKinds, type AdminSite, type AdminSiteInput } from '@petreg/contract';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Grid, MenuItem, Stack } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { FormCheckbox } from '../../components/FormCheckbox';
import { FormTextField } from '../../components/FormTextField';
import { siteInput, useSaveSite } from './sitesApi';

const newSite: AdminSiteInput = {
  name: '',
  kind: 'Veterinary Care',
  email: '',
  phoneNumber: '',
  address1: '',
  city: '',
  state: '',
  zipCode: '',
  url: '',
  receivesAlerts: false,
  isActive: true,
};

interface SiteFormDialogProps {
  /** The site to edit, or null for a new one. */
  site: AdminSite | null;
  onClose: () => void;
}

/** Add site and Edit site: one form, checked by the same schema as the server. */
export function SiteFormDialog({ site, onClose }: SiteFormDialogProps) {
  const save = useSaveSite();
  const [error, setError] = useState<string | null>(null);
  const { control, handleSubmit, setError: setFieldError } = useForm({
    resolver: zodResolver(adminSiteSchema),
    defaultValues: site ? { ...siteInput(site), phoneNumber: formatPhone(site.phoneNumber) } : newSite,
  });

  const submit = handleSubmit((input) => {
    setError(null);
    save.mutate(
      { id: site?.id ?? null, site: input },
      {
        onSuccess: () => {
          toast(messages.recordSaved, { variant: 'success' });
          onClose();
        },
        onError: (failure) => {
          const message = firstError(failure, messages.genericError);
          // The ZIP is well-formed but not a US ZIP code: say so beside it.
          if (message === messages.zipUnknown) setFieldError('zipCode', { message });
          else setError(message);
        },
      },
    );
  });

  const title = site ? 'Edit site' : 'Add site';
  return (
    <Dialog open onClose={onClose} aria-labelledby="site-dialog-title" fullWidth maxWidth="sm">
      <Stack
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="site-dialog-title">{title}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <Grid container spacing={2} sx={{ pt: 1 }}>
            <Grid size={12}>
              <FormTextField control={control} name="name" label="Name" required autoFocus fullWidth />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={control} name="kind" label="Kind" select required fullWidth>
                {siteKinds.map((kind) => (
                  <MenuItem key={kind} value={kind}>
                    {kind}
                  </MenuItem>
                ))}
              </FormTextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={control} name="phoneNumber" label="Phone Number" type="tel" fullWidth />
            </Grid>
            <Grid size={12}>
              <FormTextField
                control={control}
                name="email"
                label="Email"
                type="email"
                fullWidth
                helperText="Lost-pet alerts near this site are sent here."
              />
            </Grid>
            <Grid size={12}>
              <FormTextField control={control} name="address1" label="Address" fullWidth />
            </Grid>
            <Grid size={{ xs: 12, sm: 5 }}>
              <FormTextField control={control} name="city" label="City" fullWidth helperText="Blank: the ZIP code's city" />
            </Grid>
            <Grid size={{ xs: 5, sm: 3 }}>
              <FormTextField
                control={control}
                name="state"
                label="State"
                fullWidth
                placeholder="MO"
                slotProps={{ htmlInput: { maxLength: 2, style: { textTransform: 'uppercase' } } }}
              />
            </Grid>
            <Grid size={{ xs: 7, sm: 4 }}>
              <FormTextField
                control={control}
                name="zipCode"
                label="ZIP Code"
                required
                fullWidth
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
              />
            </Grid>
            <Grid size={12}>
              <FormTextField control={control} name="url" label="Website" type="url" fullWidth placeholder="www.example.com" />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormCheckbox control={control} name="receivesAlerts" label="Receives alerts" variant="switch" />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormCheckbox control={control} name="isActive" label="Active" variant="switch" />
            </Grid>
          </Grid>
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
