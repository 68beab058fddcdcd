import { zodResolver } from '@hookform/resolvers/zod';
import {
  adminPetSchema,
  isChipMessage,
  messages,
  paths,
  toApiDate,
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
import { FormSelect } from '../../../components/FormSelect';
import { FormTextField } from '../../../components/FormTextField';
import { useStaticData } from '../../pets/api';
import {
  FormSection,
  PetBreedsField,
  PetDobField,
  PetNameField,
  PetNotesField,
  PetPhotoField,
  PetRabiesVaccineField,
  PetSexField,
  PetSpeciesField,
  PetWeightField,
} from '../../pets/PetFields';
import { isRegistered, registrationStatus } from '../../pets/petDisplay';
import { useUpdateAdminPet } from './api';

function formValues(pet: AdminPet): AdminPetInput {
  return {
    id: pet.id,
    name: pet.name,
    speciesId: pet.speciesId ?? 0,
    breeds: pet.breeds,
    sex: pet.sex,
    dob: toApiDate(pet.dob),
    lastRabiesVaccine: toApiDate(pet.lastRabiesVaccine),
    approximateWeight: pet.approximateWeight,
    spayedNeutered: pet.spayedNeutered,
    notes: pet.notes ?? '',
    // The stored name keeps the photo; a newly chosen one replaces it with a data URL.
    image: pet.image,
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
  const staticData = useStaticData();
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
          !editing && (
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
              <FormSection title="Pet details" />
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetNameField disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetSpeciesField disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetBreedsField disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetSexField disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetDobField disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetWeightField disabled={readOnly} />
              </Grid>

              <FormSection title="Microchip" />
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormTextField control={control} name="microchip1" label="Microchip ID" autoComplete="off" disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormSelect
                  control={control}
                  name="chipTypeId"
                  label="Microchip Brand"
                  emptyOption="None"
                  options={staticData.data?.brands}
                  disabled={readOnly}
                />
              </Grid>
              <Grid size={12}>
                <FormCheckbox control={control} name="isChipActive" label="Chip Enabled" variant="switch" disabled={readOnly} />
              </Grid>

              <FormSection title="Health" />
              <Grid size={{ xs: 12, sm: 6 }}>
                <PetRabiesVaccineField disabled={readOnly} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }} sx={{ display: 'flex', alignItems: 'center' }}>
                <FormCheckbox control={control} name="spayedNeutered" label="Spayed/Neutered" disabled={readOnly} />
              </Grid>

              <FormSection title="Photo and notes" />
              <Grid size={12}>
                <PetPhotoField disabled={readOnly} storedImageUrl={pet.imageUrl} />
              </Grid>
              <Grid size={12}>
                <PetNotesField disabled={readOnly} />
              </Grid>
            </Grid>
          </CardContent>
          {editing && <EditActions onCancel={cancel} saving={update.isPending} />}
        </Box>
      </FormProvider>
    </Card>
  );
}
