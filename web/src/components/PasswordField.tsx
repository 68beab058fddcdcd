import { Visibility, VisibilityOff } from '@mui/icons-material';
import { IconButton, InputAdornment, type TextFieldProps } from '@mui/material';
import { useState } from 'react';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { FormTextField } from './FormTextField';

type PasswordFieldProps<T extends FieldValues, C, O> = {
  control: Control<T, C, O>;
  name: Path<T>;
  label: string;
  autoComplete: 'current-password' | 'new-password';
} & Pick<TextFieldProps, 'helperText' | 'autoFocus' | 'disabled'>;

/** Help text for a new password: the strength rule of spec section 5. */
export const newPasswordHelp =
  'At least 8 characters with an uppercase letter, a lowercase letter, a number and one of ! @ # $ % ^ & * ?';

/** A password input with a show/hide toggle. */
export function PasswordField<T extends FieldValues, C, O>(props: PasswordFieldProps<T, C, O>) {
  const [visible, setVisible] = useState(false);
  return (
    <FormTextField
      {...props}
      type={visible ? 'text' : 'password'}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              {/* Labelled without the word "password" so the field's own label stays unique. */}
              <IconButton
                aria-label={visible ? 'Hide characters' : 'Show characters'}
                aria-pressed={visible}
                onClick={() => setVisible((v) => !v)}
                onMouseDown={(event) => event.preventDefault()}
                edge="end"
              >
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
