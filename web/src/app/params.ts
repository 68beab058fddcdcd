/** A record id read from a screen path or query: a positive whole number, otherwise null. */
export function recordId(param: string | null | undefined): number | null {
  const id = Number(param);
  return param && Number.isSafeInteger(id) && id > 0 ? id : null;
}
