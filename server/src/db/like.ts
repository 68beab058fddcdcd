/** A LIKE/ILIKE pattern matching the text anywhere, its own %, _ and \ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
