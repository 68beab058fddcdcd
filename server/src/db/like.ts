/** A LIKE/ILIKE pattern matching the text itself, its own %, _ and \ taken literally. */
export const literalPattern = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** A LIKE/ILIKE pattern matching the text anywhere, its own %, _ and \ taken literally. */
export const containsPattern = (text: string) => `%${literalPattern(text)}%`;
