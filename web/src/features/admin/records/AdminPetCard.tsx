import { zodResolver } from '@hookform/resolvers/zod';
import {
  adminPetSchema,
  isChipMessage,
  messages,
  paths,
  withId,
  type AdminPet,
  type AdminPetInput,
  type AdminPetUpdate,
} from '@petreg/contract';
import { Edit, Pets } from '@mui/icons-material';
import { Box, Button, Card, CardContent, CardHeader, Grid } from '@mui/material';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { EditActions } from '../../../components/EditActions';
import { FormCheckbox } from '../../../components/FormCheckbox';
import { FormTextField } from '../../../components/FormTextField';
import { FormSection, PetChipBrandField, PetDetailsSection, PetHealthSection, PetPhotoAndNotesSection } from '../../pets/PetFields';
import { petFieldValues } from '../../pets/petFormValues';
import { isRegistered, registrationStatus } from '../../pets/petDisplay';
import { useUpdateAdminPet } from './api';

function formValues(pet: AdminPet): AdminPetInput {
  return {
    ...petFieldValues(pet),
    speciesId: pet.speciesId ?? 0,
    microchip1: pet.microchip1 ?? '',
    chipTypeId: pet.chips[0]?.chipTypeId ?? null,
    isChipActive: pet.isChipActive,
    isActive: pet.isActive,
  };
}

/**
 * The pet's card of admin/pet/:id (spec 2.7): read-only until Edit; Cancel puts back what is saved.
 * After saving a pet that was not active, the administrator goes on to its plan choice (spec 4).
 */
export function AdminPetCard({ pet }: { pet: AdminPet }) {
  const navigate = useNavigate();
  const update = useUpdateAdminPet(pet.id);
  const [editing, setEditing] = useState(false);
  const form = useForm<AdminPetInput, unknown, AdminPetUpdate>({
    resolver: zodResolver(adminPetSchema),
    defaultValues: formValues(pet),
  });

  const cancel = () => {
    form.reset(formValues(pet));
    setEditing(false);
  };

  // A switch goes only when turned here: one sent as loaded could undo a payment made meanwhile.
  const onSubmit = form.handleSubmit(({ isActive, isChipActive, ...input }) =>
    update.mutate({ ...input, ...(isActive !== pet.isActive && { isActive }), ...(isChipActive !== pet.isChipActive && { isChipActive }) }, {
      onSuccess: (saved) => {
        form.reset(formValues(saved));
        setEditing(false);
        toast(messages.petSaved, { variant: 'success' });
        if (!pet.isActive) void navigate(withId(paths.clientPetCheckout, pet.id));
      },
      onError: (failure) => {
        // Spec 8: a message about the chip number or microchip id belongs on the microchip field.
        const chipMessage = failure instanceof ApiError ? failure.errors.find(isChipMessage) : undefined;
        if (chipMessage) form.setError('microchip1', { message: chipMessage }, { shouldFocus: true });
        else toast(messages.genericError, { variant: 'error' });
      },
    }),
  );

  const readOnly = !editing || update.isPending;
  const { control } = form;

  return (
    <Card component="section" aria-labelledby="pet-record-title">
      <CardHeader
        avatar={<Pets color="primary" />}
        title="Pet Profile"
        subheader={`Pet #${pet.id} · ${registrationStatus(pet)}${pet.plan && !isRegistered(pet) ? ` · ${pet.plan.name} chosen` : ''}`}
        slotProps={{ title: { variant: 'h3', component: 'h2', id: 'pet-record-title' } }}
        action={
          // A removed pet's record is kept as it was.
          !editing &&
          !pet.removed && (
            <Button startIcon={<Edit />} onClick={() => setEditing(true)} aria-label="Edit pet">
              Edit
            </Button>
          )
        }
      />
      <FormProvider {...form}>
        <Box component="form" onSubmit={onSubmit} noValidate aria-label="Pet profile">
          <CardContent>
            <Grid container spacing={2}>
              <Grid size={12}>
                <FormCheckbox control={control} name="isActive" label="Enabled" variant="switch" disabled={readOnly} />
              </Grid>
              <PetDetailsSection disabled={readOnly} />

              <FormSection title="Microchip" />
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormTextField control={control} name="microchip1" label="Microchip ID" autoComplete="off" disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetChipBrandField disabled={readOnly} />
              </Grid>
              <Grid size={12}>
                <FormCheckbox control={control} name="isChipActive" label="Chip Enabled" variant="switch" disabled={readOnly} />
              </Grid>

              <PetHealthSection disabled={readOnly} />

              <PetPhotoAndNotesSection disabled={readOnly} storedImageUrl={pet.imageUrl} />
            </Grid>
          </CardContent>
          {editing && <EditActions onCancel={cancel} saving={update.isPending} />}
        </Box>
      </FormProvider>
    </Card>
  );
}
