/** The answer of every API call: `{ succeeded, result, errors }`. */
export interface Envelope<T> {
  succeeded: boolean;
  result: T | null;
  errors: string[];
}

export function ok<T>(result: T): Envelope<T> {
  return { succeeded: true, result, errors: [] };
}

export function failure(errors: string[]): Envelope<never> {
  return { succeeded: false, result: null, errors };
}
