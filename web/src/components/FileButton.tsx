import { Button, type ButtonProps } from '@mui/material';
import { useRef, type ReactNode } from 'react';

interface FileButtonProps extends Pick<ButtonProps, 'variant' | 'size' | 'startIcon' | 'disabled' | 'sx'> {
  /** The button's text, such as "Choose a photo". */
  children: ReactNode;
  /** The file types offered, as the file input's `accept`. */
  accept: string;
  /** The name of the hidden file input, which scripts and tests set files on. */
  inputLabel: string;
  onChoose: (file: File | undefined) => void;
}

/**
 * A button that opens the device's file picker. A real button, so Enter and Space open it: a label
 * styled as a button takes the focus but ignores the keyboard.
 */
export function FileButton({ children, accept, inputLabel, onChoose, ...button }: FileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        hidden
        type="file"
        accept={accept}
        aria-label={inputLabel}
        onChange={(event) => {
          onChoose(event.target.files?.[0]);
          // Choosing the same file again (after fixing it) must still count as a choice.
          event.target.value = '';
        }}
      />
    </>
  );
}
