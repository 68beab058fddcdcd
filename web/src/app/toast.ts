import { ui } from '@petreg/contract';
import { enqueueSnackbar, type VariantType } from 'notistack';

interface ToastOptions {
  variant?: VariantType;
  /** Milliseconds; the spec's default is 2000. */
  duration?: number;
}

/** Shows a toast under the spec's snackbar rules (section 9): messages under 2 characters stay hidden. */
export function toast(message: string, { variant = 'default', duration = ui.snackbarAutoHideMs }: ToastOptions = {}): void {
  if (message.trim().length < 2) return;
  // Joined server messages arrive one a line.
  enqueueSnackbar(message, { variant, autoHideDuration: duration, style: { whiteSpace: 'pre-line' } });
}
