import { ui } from '@petreg/contract';
import { enqueueSnackbar, type VariantType } from 'notistack';

interface ToastOptions {
  variant?: VariantType;
  /** Milliseconds; the spec's default is 2000. */
  duration?: number;
}

/**
 * Messages on screen that have not started to leave. The same words again while one is up add nothing;
 * once it starts to leave they show anew (notistack's own preventDuplicate also swallowed a message
 * still sliding out, so a second save made then was never confirmed).
 */
const up = new Set<string>();

/** Shows a toast under the spec's snackbar rules (section 9): messages under 2 characters stay hidden. */
export function toast(message: string, { variant = 'default', duration = ui.snackbarAutoHideMs }: ToastOptions = {}): void {
  if (message.trim().length < 2 || up.has(message)) return;
  up.add(message);
  // Joined server messages arrive one a line.
  enqueueSnackbar(message, {
    variant,
    autoHideDuration: duration,
    style: { whiteSpace: 'pre-line' },
    onClose: () => up.delete(message),
  });
}
