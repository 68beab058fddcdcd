import type { DownloadFile } from '@petreg/contract';
import { useEffect, useMemo } from 'react';

/** The per-row result files of the administrators' CSV uploads (sites import, bulk pet upload). */

const blobOf = (file: DownloadFile) => new Blob([Uint8Array.from(atob(file.fileContents), (c) => c.charCodeAt(0))], { type: file.contentType });

/** The result file as a link the browser saves; the address is released when the screen lets it go. */
export function useDownloadUrl(file: DownloadFile | undefined) {
  const url = useMemo(() => (file ? URL.createObjectURL(blobOf(file)) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/** Saves the file at once, as a download the browser names `fileDownloadName`. */
export function saveFile(file: DownloadFile) {
  const url = URL.createObjectURL(blobOf(file));
  const link = Object.assign(document.createElement('a'), { href: url, download: file.fileDownloadName });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "1 site added", "3 sites added". */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
