/** An expected failure: its messages reach the user in the envelope's `errors`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: string[],
  ) {
    super(errors.join('; '));
  }
}

export const badRequest = (message: string) => new AppError(400, [message]);
export const unauthorized = (message: string) => new AppError(401, [message]);
export const forbidden = (message: string) => new AppError(403, [message]);
export const notFound = (message: string) => new AppError(404, [message]);
export const conflict = (message: string) => new AppError(409, [message]);

/**
 * A failed query's message carries its parameters (password hashes, addresses, phone numbers);
 * the log keeps the SQL and the database's error code, never the values.
 */
export function loggable(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return {
    type: error.name,
    message: error.message.replace(/\nparams:[\s\S]*$/, ''),
    code: cause?.code,
    cause: cause?.message,
    stack: error.stack?.replace(/\nparams:[\s\S]*?(\n\s+at )/, '$1'),
  };
}
