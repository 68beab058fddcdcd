import type { DownloadFile } from '@petreg/contract';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.js';

/**
 * CSV files administrators upload (sites, pets) and the per-row result files they get back: one
 * reading of a file, one result file, one multipart upload, whatever the rows hold.
 */

/** What a kind of CSV file needs, and how its refusals are worded. */
export interface CsvFileRules<C extends string> {
  /** The template's columns, in its order. */
  columns: readonly C[];
  /** Columns the first row must name. */
  required: readonly C[];
  maxRows: number;
  messages: { fileRequired: string; unreadable: string; columnsMissing: string; noRows: string; tooManyRows: string };
}

/**
 * The file as text: UTF-8 (its byte-order mark dropped), or Windows-1252, in which spreadsheets
 * save "CSV" on Windows. A NUL byte means a binary file, never a CSV.
 */
function fileText(file: Buffer, unreadable: string): string {
  if (file.includes(0)) throw badRequest(unreadable);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return new TextDecoder('windows-1252').decode(file);
  }
}

/** The file's rows, by the template's column names, read from its first row (in any order and case). */
export function readCsvRows<C extends string>(file: Buffer, rules: CsvFileRules<C>): Record<C, string>[] {
  const { columns, messages } = rules;
  if (file.length === 0) throw badRequest(messages.fileRequired);
  let records: string[][];
  try {
    records = parse(fileText(file, messages.unreadable), { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  } catch {
    throw badRequest(messages.unreadable);
  }
  const [header = [], ...rows] = records;
  const names = header.map((name) => name.trim().toLowerCase());
  const positions = columns.map((column) => names.indexOf(column.toLowerCase()));
  // A first row naming none of the columns is no such file at all, whatever else it is.
  if (positions.every((position) => position < 0)) throw badRequest(messages.unreadable);
  if (rules.required.some((column) => positions[columns.indexOf(column)]! < 0)) throw badRequest(messages.columnsMissing);
  // Spreadsheets save rows of empty cells below the data.
  const filled = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (filled.length === 0) throw badRequest(messages.noRows);
  if (filled.length > rules.maxRows) throw badRequest(messages.tooManyRows);
  return filled.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[positions[i]!] ?? ''])) as Record<C, string>);
}

/** What became of one row of a file, as its result file reports it. */
export interface CsvRowResult<C extends string, S extends string> {
  cells: Record<C, string>;
  status: S;
  reason: string;
}

export interface CsvResultFile<S extends string> extends DownloadFile {
  counts: Record<S, number>;
}

/** A cell a spreadsheet would run as a formula (CSV injection) is written as text. */
export const neutralised = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

/** How many rows ended each way. */
export function countStatuses<S extends string>(statuses: readonly S[], results: readonly { status: S }[]): Record<S, number> {
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const { status } of results) counts[status]++;
  return counts;
}

/** The file's rows as given, plus each row's status and reason, named `{name}-{time}.csv`. */
export function csvResultFile<C extends string, S extends string>(
  columns: readonly C[],
  statuses: readonly S[],
  results: readonly CsvRowResult<C, S>[],
  name: string,
): CsvResultFile<S> {
  const header = [...columns, 'status', 'reason'];
  const rows = results.map(({ cells, status, reason }) => [...columns.map((column) => cells[column]), status, reason]);
  return { ...csvDownload(header, rows, name), counts: countStatuses(statuses, results) };
}

/**
 * A CSV file to download, as spreadsheets open it (UTF-8 with a byte-order mark, CRLF), every cell
 * neutralised, named `{name}-{time}.csv`.
 */
export function csvDownload(header: readonly string[], rows: readonly (readonly string[])[], name: string): DownloadFile {
  const text = stringify([header, ...rows.map((row) => row.map(neutralised))], { bom: true, record_delimiter: 'windows' });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return { fileContents: Buffer.from(text, 'utf8').toString('base64'), contentType: 'text/csv', fileDownloadName: `${name}-${stamp}.csv` };
}

/** A multipart upload read whole: its one file (null when none came) and its text fields. */
export interface Upload {
  file: Buffer | null;
  fileName: string | null;
  fields: Record<string, string>;
}

/**
 * Reads a multipart request of one file and a few fields, in whatever order they come. The route's
 * plugin registers @fastify/multipart with the file size it takes; a larger file answers 413.
 */
export async function readUpload(request: FastifyRequest, messages: { fileRequired: string; tooLarge: string; invalidRequest: string }): Promise<Upload> {
  if (!request.isMultipart()) throw badRequest(messages.fileRequired);
  const upload: Upload = { file: null, fileName: null, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        upload.file = await part.toBuffer();
        upload.fileName = part.filename;
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) throw new AppError(413, [messages.tooLarge]);
    // A multipart body cut short or malformed.
    throw badRequest(messages.invalidRequest);
  }
  return upload;
}
