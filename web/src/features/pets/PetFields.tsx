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

interface PetFieldsProps {
  disabled?: boolean;
  /** The stored photo's address when the pet has one (edit form). */
  storedImageUrl?: string | null;
}

/**
 * The pet form's fields (spec 2.4), shared by registration and the owner's edit form. They read the
 * surrounding form through react-hook-form's context; both forms hold these fields under these names.
 */
export function PetFields({ disabled = false, storedImageUrl = null }: PetFieldsProps) {
  const { control, setValue } = useFormContext<PetRegistrationInput>();
  const [speciesId, chipId, notes] = useWatch({ control, name: ['speciesId', 'chipId', 'notes'] });
  const staticData = useStaticData();
  const breeds = useBreedsBySpecies(speciesId);
  const speciesName = staticData.data?.species.find((s) => s.id === speciesId)?.name;
  const breedsHint = speciesId ? `Up to ${limits.breedsMax}` : 'Choose a species first';

  return (
    <Grid container spacing={2}>
      <Section title="Pet details" />
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={control} name="name" label="Pet Name" required disabled={disabled} autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
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
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
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
                  error={Boolean(fieldState.error)}
                  helperText={fieldState.error?.message ?? (disabled ? undefined : breedsHint)}
                />
              )}
            />
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormSelect control={control} name="sex" label="Sex" options={sexes} disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="dob"
          label="Date of Birth"
          type="date"
          parse={optionalDate}
          disabled={disabled}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="approximateWeight"
          label="Approximate Weight (lbs)"
          type="number"
          parse={optionalNumber}
          disabled={disabled}
          slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
        />
      </Grid>

      <Section title="Microchip" />
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
        <FormSelect
          control={control}
          name="chipTypeId"
          label="Microchip Brand"
          emptyOption="None"
          options={staticData.data?.brands}
          disabled={disabled}
        />
      </Grid>
      {!disabled && (
        <Grid size={12}>
          <CouponBanner chipId={chipId} />
        </Grid>
      )}

      <Section title="Health" />
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="lastRabiesVaccine"
          label="Last Rabies Vaccine"
          type="date"
          parse={optionalDate}
          disabled={disabled}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }} sx={{ display: 'flex', alignItems: 'center' }}>
        <FormCheckbox control={control} name="spayedNeutered" label="Spayed/Neutered" disabled={disabled} />
      </Grid>

      <Section title="Photo and notes" />
      <Grid size={12}>
        <Controller
          control={control}
          name="image"
          render={({ field: { value, onChange } }) => (
            <ImageField
              label="Pet photo"
              value={value}
              onChange={onChange}
              previewSrc={value && storedImageUrl ? storedImageUrl : speciesImage(speciesName)}
              disabled={disabled}
            />
          )}
        />
      </Grid>
      <Grid size={12}>
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
      </Grid>
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

function Section({ title }: { title: ReactNode }) {
  return (
    <Grid size={12} sx={{ '&:not(:first-of-type)': { mt: 1 } }}>
      <Typography variant="subtitle2" component="h3" color="primary" sx={{ textTransform: 'uppercase', letterSpacing: 0.6 }}>
        {title}
      </Typography>
    </Grid>
  );
}
