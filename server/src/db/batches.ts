/** Rows a statement writes at once: PostgreSQL takes at most 65,535 parameters a statement. */
export const batchSize = 1000;

/** The items in consecutive slices of at most `size`. */
export const batches = <T>(items: readonly T[], size = batchSize): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
