import { useCallback, useEffect, useRef } from 'react';
import type { FieldValues, Path, UseFormClearErrors, UseFormSetError } from 'react-hook-form';

/** Shows a server message against a field for a while (spec 8: 5 s on sign-up, 8 s on sign-in). */
export function useTimedFieldError<T extends FieldValues>(setError: UseFormSetError<T>, clearErrors: UseFormClearErrors<T>) {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  return useCallback(
    (name: Path<T>, message: string, durationMs: number) => {
      setError(name, { type: 'server', message }, { shouldFocus: true });
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => clearErrors(name), durationMs);
    },
    [setError, clearErrors],
  );
}
