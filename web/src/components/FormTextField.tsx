import { TextField, type TextFieldProps } from '@mui/material';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

type FormTextFieldProps<T extends FieldValues, C, O> = {
  control: Control<T, C, O>;
  name: Path<T>;
  /** Turns the typed text into the field's value, e.g. '' into null for an optional date or number. */
  parse?: (text: string) => unknown;
  /** Turns the field's value into the input's text, the reverse of `parse` (a UTC timestamp into local time). */
  format?: (value: unknown) => string;
} & Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'inputRef'>;

/** A MUI text field bound to a react-hook-form field; the field's error replaces the help text. */
export function FormTextField<T extends FieldValues, C, O>({
  control,
  name,
  helperText,
  parse,
  format,
  ...props
}: FormTextFieldProps<T, C, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, value, onChange, ...field }, fieldState }) => (
        <TextField
          {...field}
          {...props}
          // Optional fields arrive as null from the API; inputs need a string.
          value={format ? format(value) : (value ?? '')}
          onChange={(event) => onChange(parse ? parse(event.target.value) : event.target.value)}
          inputRef={ref}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}
