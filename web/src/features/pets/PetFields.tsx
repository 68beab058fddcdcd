import { limits, sexes, toApiDate, type PetRegistrationInput } from '@petreg/contract';
import { Autocomplete, Grid, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { FormCheckbox } from '../../components/FormCheckbox';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { ImageField } from '../../components/ImageField';
import { useBreedsBySpecies, useStaticData } from './api';
import { CouponBanner } from './CouponBanner';
import { speciesImage } from './petDisplay';

const today = () => toApiDate(new Date()) ?? undefined;
const optionalDate = (text: string) => text || null;
const optionalNumber = (text: string) => (text === '' ? null : Number(text));

/**
 * The pet fields every pet form holds under the same names (registration, the owner's edit form, the
 * lost alert form). Each reads the surrounding form through react-hook-form's context.
 */
function usePetForm() {
  return useFormContext<PetRegistrationInput>();
}

interface FieldProps {
  disabled?: boolean;
}

export function PetNameField({ disabled = false }: FieldProps) {
  return <FormTextField control={usePetForm().control} name="name" label="Pet Name" required disabled={disabled} autoComplete="off" />;
}

export function PetSpeciesField({ disabled = false }: FieldProps) {
  const { control, setValue } = usePetForm();
  const staticData = useStaticData();
  return (
    <FormSelect
      control={control}
      name="speciesId"
      label="Species"
      required
      options={staticData.data?.species}
      disabled={disabled}
      // Spec 4: breeds belong to a species; a new species starts the choice again.
      onValueChange={() => setValue('breeds', [])}
    />
  );
}

/** Up to three breeds of the chosen species, reloaded when the species changes. */
export function PetBreedsField({ disabled = false, required = false }: FieldProps & { required?: boolean }) {
  const { control } = usePetForm();
  const speciesId = useWatch({ control, name: 'speciesId' });
  const breeds = useBreedsBySpecies(speciesId);
  const hint = speciesId ? `Up to ${limits.breedsMax}` : 'Choose a species first';

  return (
    <Controller
      control={control}
      name="breeds"
      render={({ field: { value = [], onChange, onBlur, ref }, fieldState }) => (
        <Autocomplete
          multiple
          options={breeds.data ?? []}
          value={value}
          onChange={(_, chosen) => onChange(chosen)}
          onBlur={onBlur}
          getOptionLabel={(breed) => breed.name}
          isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
          getOptionDisabled={(option) => value.length >= limits.breedsMax && !value.some((b) => b.id === option.id)}
          loading={breeds.isFetching}
          disabled={disabled || !speciesId}
          filterSelectedOptions
          disableCloseOnSelect
          renderInput={(params) => (
            <TextField
              {...params}
              inputRef={ref}
              label="Breeds"
              required={required}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message ?? (disabled ? undefined : hint)}
            />
          )}
        />
      )}
    />
  );
}

export function PetSexField({ disabled = false, required = false }: FieldProps & { required?: boolean }) {
  return <FormSelect control={usePetForm().control} name="sex" label="Sex" options={sexes} required={required} disabled={disabled} />;
}

export function PetDobField({ disabled = false, required = false }: FieldProps & { required?: boolean }) {
  return (
    <FormTextField
      control={usePetForm().control}
      name="dob"
      label="Date of Birth"
      type="date"
      parse={optionalDate}
      required={required}
      disabled={disabled}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
    />
  );
}

export function PetWeightField({ disabled = false }: FieldProps) {
  return (
    <FormTextField
      control={usePetForm().control}
      name="approximateWeight"
      label="Approximate Weight (lbs)"
      type="number"
      parse={optionalNumber}
      disabled={disabled}
      slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
    />
  );
}

/** Colour and markings, one line: what a professional matches a found animal on. Not on the public profile. */
export function PetColourField({ disabled = false }: FieldProps) {
  return (
    <FormTextField
      control={usePetForm().control}
      name="colour"
      label="Colour and markings"
      placeholder="Black and tan, white chest"
      disabled={disabled}
      autoComplete="off"
      slotProps={{ htmlInput: { maxLength: limits.colourMax } }}
    />
  );
}

export function PetRabiesVaccineField({ disabled = false }: FieldProps) {
  return (
    <FormTextField
      control={usePetForm().control}
      name="lastRabiesVaccine"
      label="Last Rabies Vaccine"
      type="date"
      parse={optionalDate}
      disabled={disabled}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
    />
  );
}

/** Notes with the spec's counter; typing stops at the limit. */
export function PetNotesField({ disabled = false }: FieldProps) {
  const { control } = usePetForm();
  const notes = useWatch({ control, name: 'notes' });
  return (
    <FormTextField
      control={control}
      name="notes"
      label="Notes"
      multiline
      minRows={3}
      disabled={disabled}
      helperText={`${notes?.length ?? 0}/${limits.notesMax}`}
      slotProps={{ htmlInput: { maxLength: limits.notesMax } }}
    />
  );
}

interface PetPhotoFieldProps extends FieldProps {
  /** The stored photo's address when the pet has one. */
  storedImageUrl?: string | null;
  /** Shown under the photo instead of the field's own error, such as the message of a refused send. */
  error?: string;
}

/** The pet's photo, dropped or picked; the species' picture stands in until there is one. */
export function PetPhotoField({ disabled = false, storedImageUrl = null, error }: PetPhotoFieldProps) {
  const { control } = usePetForm();
  const speciesId = useWatch({ control, name: 'speciesId' });
  const speciesName = useStaticData().data?.species.find((s) => s.id === speciesId)?.name;
  return (
    <Controller
      control={control}
      name="image"
      render={({ field: { value, onChange }, fieldState }) => (
        <ImageField
          label="Pet photo"
          value={value}
          onChange={onChange}
          previewSrc={value && storedImageUrl ? storedImageUrl : speciesImage(speciesName)}
          disabled={disabled}
          error={error ?? fieldState.error?.message}
        />
      )}
    />
  );
}

/** The brand of the pet's first chip. */
export function PetChipBrandField({ disabled = false }: FieldProps) {
  const staticData = useStaticData();
  return (
    <FormSelect
      control={usePetForm().control}
      name="chipTypeId"
      label="Microchip Brand"
      emptyOption="None"
      options={staticData.data?.brands}
      disabled={disabled}
    />
  );
}

interface PetFieldsProps extends FieldProps {
  /** The stored photo's address when the pet has one (edit form). */
  storedImageUrl?: string | null;
}

/** Name, species, breeds, sex, date of birth, weight and colour under their title, as items of the form's grid. */
export function PetDetailsSection({ disabled = false }: FieldProps) {
  return (
    <>
      <FormSection title="Pet details" />
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetNameField disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetSpeciesField disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetBreedsField disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetSexField disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetDobField disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetWeightField disabled={disabled} />
      </Grid>
      <Grid size={12}>
        <PetColourField disabled={disabled} />
      </Grid>
    </>
  );
}

/** The last rabies vaccine and spayed/neutered under their title, as items of the form's grid. */
export function PetHealthSection({ disabled = false }: FieldProps) {
  const { control } = usePetForm();
  return (
    <>
      <FormSection title="Health" />
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetRabiesVaccineField disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }} sx={{ display: 'flex', alignItems: 'center' }}>
        <FormCheckbox control={control} name="spayedNeutered" label="Spayed/Neutered" disabled={disabled} />
      </Grid>
    </>
  );
}

/** The photo and the notes under their title, as items of the form's grid. */
export function PetPhotoAndNotesSection({ disabled = false, storedImageUrl = null }: PetFieldsProps) {
  return (
    <>
      <FormSection title="Photo and notes" />
      <Grid size={12}>
        <PetPhotoField disabled={disabled} storedImageUrl={storedImageUrl} />
      </Grid>
      <Grid size={12}>
        <PetNotesField disabled={disabled} />
      </Grid>
    </>
  );
}

/** The pet form's fields (spec 2.4), shared by registration and the owner's edit form. */
export function PetFields({ disabled = false, storedImageUrl = null }: PetFieldsProps) {
  const { control } = usePetForm();
  const chipId = useWatch({ control, name: 'chipId' });

  return (
    <Grid container spacing={2}>
      <PetDetailsSection disabled={disabled} />

      <FormSection title="Microchip" />
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="chipId"
          label="Microchip ID"
          disabled={disabled}
          autoComplete="off"
          helperText={disabled ? undefined : '9, 10 or 15 characters. Leave empty if your pet has no microchip.'}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={control} name="confirmChip" label="Confirm Microchip ID" disabled={disabled} autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PetChipBrandField disabled={disabled} />
      </Grid>
      {!disabled && (
        <Grid size={12}>
          <CouponBanner chipId={chipId} />
        </Grid>
      )}

      <PetHealthSection disabled={disabled} />

      <PetPhotoAndNotesSection disabled={disabled} storedImageUrl={storedImageUrl} />
      <Grid size={12}>
        <FormCheckbox
          control={control}
          name="shareContactInfo"
          label="Share Contact Info when my pet is lost"
          disabled={disabled}
        />
      </Grid>
    </Grid>
  );
}

/** A titled group of fields inside a form's grid. */
export function FormSection({ title }: { title: ReactNode }) {
  return (
    <Grid size={12} sx={{ '&:not(:first-of-type)': { mt: 1 } }}>
      <Typography variant="subtitle2" component="h3" color="primary" sx={{ textTransform: 'uppercase', letterSpacing: 0.6 }}>
        {title}
      </Typography>
    </Grid>
  );
}
