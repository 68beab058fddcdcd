/** The answer of every API call: `{ succeeded, result, errors }`. */
export interface Envelope<T> {
  succeeded: boolean;
  result: T | null;
  errors: string[];
}

/** A successful answer: its result is there. */
export interface Succeeded<T> extends Envelope<T> {
  succeeded: true;
  result: T;
}

export function ok<T>(result: T): Succeeded<T> {
  return { succeeded: true, result, errors: [] };
}

export function failure(errors: string[]): Envelope<never> {
  return { succeeded: false, result: null, errors };
}
