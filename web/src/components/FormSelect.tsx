import type { NamedItem } from '@petreg/contract';
import { MenuItem, TextField } from '@mui/material';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

interface FormSelectProps<T extends FieldValues, C, O> {
  control: Control<T, C, O>;
  name: Path<T>;
  label: string;
  /** Undefined while the list is loading. */
  options: readonly NamedItem[] | undefined;
  /** Text of an option that clears the choice (value null); without it a choice cannot be undone. */
  emptyOption?: string;
  disabled?: boolean;
  helperText?: string;
  required?: boolean;
  /** Called after the person picks another option (not when the form is reset). */
  onValueChange?: (id: number | null) => void;
}

/** A select of named records bound to a react-hook-form field holding the chosen id (or null). */
export function FormSelect<T extends FieldValues, C, O>({
  control,
  name,
  label,
  options,
  emptyOption,
  disabled,
  helperText,
  required,
  onValueChange,
}: FormSelectProps<T, C, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { value, onChange, ref, ...field }, fieldState }) => (
        <TextField
          {...field}
          select
          label={label}
          required={required}
          inputRef={ref}
          // Until the list arrives the saved id has no option to show.
          value={options ? (value ?? '') : ''}
          onChange={(event) => {
            const id = event.target.value === '' ? null : Number(event.target.value);
            onChange(id);
            onValueChange?.(id);
          }}
          disabled={disabled}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        >
          {emptyOption !== undefined && (
            <MenuItem value="">
              <em>{emptyOption}</em>
            </MenuItem>
          )}
          {options?.map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
