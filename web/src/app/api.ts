import { API_BASE, storageKeys, type Envelope } from '@petreg/contract';

/** A failed call: the HTTP status (0 when the server could not be reached) and the spec's messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: string[];

  constructor(status: number, errors: string[]) {
    super(errors[0] ?? `Request failed (${status || 'network error'})`);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

/** The first server message of a failed call, or the fallback when there is none. */
export function firstError(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.errors[0] ? error.errors[0] : fallback;
}

/** Every server message of a failed call, one a line (spec 8's joined errors), or the fallback. */
export function allErrors(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.errors.length > 0 ? error.errors.join('\n') : fallback;
}

/** Spec 8: a list that cannot be fetched is logged and shown empty. */
export async function orEmpty<T>(request: Promise<T[]>, what: string): Promise<T[]> {
  try {
    return await request;
  } catch (error) {
    // A cancelled query is not a failure; TanStack Query drops its result.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.warn(`Could not load ${what}; showing none.`, error);
    return [];
  }
}

export const accessToken = {
  get: (): string | null => localStorage.getItem(storageKeys.accessToken),
  set: (token: string): void => localStorage.setItem(storageKeys.accessToken, token),
  clear: (): void => localStorage.removeItem(storageKeys.accessToken),
};

let onUnauthorized: (() => void) | null = null;

/** The session registers how a rejected token ends it (spec 4: any 401 logs out). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface CallOptions {
  /** Calls that end a session themselves (logout, token login) must not trigger the 401 logout. */
  ignoreUnauthorized?: boolean;
  signal?: AbortSignal;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'succeeded' in value && 'errors' in value;
}

async function call<T>(method: Method, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const token = accessToken.get();
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A form with a file goes as multipart; the browser writes its Content-Type with the boundary.
  const form = body instanceof FormData ? body : null;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path}`, {
      method,
      headers,
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, []);
  }

  if (response.status === 401 && token && !options.ignoreUnauthorized) onUnauthorized?.();

  const payload: unknown = await response.json().catch(() => null);
  if (!isEnvelope(payload)) throw new ApiError(response.status, []);
  if (!response.ok || !payload.succeeded) throw new ApiError(response.status, payload.errors);
  return payload.result as T;
}

/** The name a file answer gives itself (Content-Disposition), or the fallback. */
function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf8) return decodeURIComponent(utf8[1]!);
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/** A file the API answers (an export, a PDF) with its name; a failure still comes as the envelope. */
async function file(path: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  const token = accessToken.get();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, []);
  }
  if (response.status === 401 && token) onUnauthorized?.();
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, isEnvelope(payload) ? payload.errors : []);
  }
  return { blob: await response.blob(), fileName: fileNameOf(response, fallbackName) };
}

/** Saves a file the browser names `fileName`, at once. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const api = {
  /** A file answer: its content and name. */
  file,
  get: <T>(path: string, options?: CallOptions) => call<T>('GET', path, undefined, options),
  post: <T>(path: string, body: unknown = {}, options?: CallOptions) => call<T>('POST', path, body, options),
  put: <T>(path: string, body: unknown, options?: CallOptions) => call<T>('PUT', path, body, options),
  /** Some deletes name their record in a body (spec 7, DELETE site/RemoveFromPet). */
  delete: <T>(path: string, body?: unknown, options?: CallOptions) => call<T>('DELETE', path, body, options),
  /** Sends a file (with any other fields of the form) as multipart/form-data. */
  upload: <T>(path: string, form: FormData, options?: CallOptions) => call<T>('POST', path, form, options),
};
