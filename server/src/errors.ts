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
