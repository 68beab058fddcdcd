import { Checkbox, FormControlLabel, Switch } from '@mui/material';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

interface FormCheckboxProps<T extends FieldValues, C, O> {
  control: Control<T, C, O>;
  name: Path<T>;
  label: string;
  disabled?: boolean;
  /** A switch reads as a setting that is on or off; a checkbox as a statement that holds or not. */
  variant?: 'checkbox' | 'switch';
  /** Called after the person turns it on or off (not when the form is reset). */
  onValueChange?: (checked: boolean) => void;
}

/** A labelled checkbox or switch bound to a boolean react-hook-form field. */
export function FormCheckbox<T extends FieldValues, C, O>({
  control,
  name,
  label,
  disabled,
  variant = 'checkbox',
  onValueChange,
}: FormCheckboxProps<T, C, O>) {
  const Control = variant === 'switch' ? Switch : Checkbox;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { value, onChange, ref, ...field } }) => (
        <FormControlLabel
          label={label}
          disabled={disabled}
          control={
            <Control
              {...field}
              slotProps={{ input: { ref } }}
              checked={Boolean(value)}
              onChange={(_, checked) => {
                onChange(checked);
                onValueChange?.(checked);
              }}
            />
          }
        />
      )}
    />
  );
}
