import { messages, siteImportLimits, type SiteImportResult } from '@petreg/contract';
import { Download, UploadFile } from '@mui/icons-material';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link, Stack, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { firstError } from '../../app/api';
import { useImportSites } from './sitesApi';

export const sitesTemplateUrl = '/templates/sites-import-template.csv';

/** The result file as a link the browser saves; the address is released when the dialog closes. */
function useDownloadUrl(result: SiteImportResult | undefined) {
  const url = useMemo(() => {
    if (!result) return null;
    const bytes = Uint8Array.from(atob(result.fileContents), (c) => c.charCodeAt(0));
    return URL.createObjectURL(new Blob([bytes], { type: result.contentType }));
  }, [result]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Import CSV: choose a file, upload it, then download the result file with each row's status. */
export function SiteImportDialog({ onClose }: { onClose: () => void }) {
  const upload = useImportSites();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const result = upload.data;
  const downloadUrl = useDownloadUrl(result);

  const choose = (chosen: File | null) => {
    upload.reset();
    setError(chosen && chosen.size > siteImportLimits.maxFileBytes ? messages.csvTooLarge : null);
    setFile(chosen);
  };

  const send = () => {
    if (file) upload.mutate(file, { onError: (failure) => setError(firstError(failure, messages.genericError)) });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="import-dialog-title" fullWidth maxWidth="sm">
      <DialogTitle id="import-dialog-title">Import sites from a CSV file</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            One site a row, with the columns of the{' '}
            <Link href={sitesTemplateUrl} download>
              template
            </Link>
            . A row naming a site already listed (same name or email at the same ZIP code) updates it; blank cells keep what the site has.
          </DialogContentText>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Button component="label" variant="outlined" startIcon={<UploadFile />} sx={{ flexShrink: 0 }}>
              Choose file
              <input
                hidden
                type="file"
                accept=".csv,text/csv"
                aria-label="CSV file"
                onChange={(event) => {
                  choose(event.target.files?.[0] ?? null);
                  // Choosing the same file again after fixing it must still count as a choice.
                  event.target.value = '';
                }}
              />
            </Button>
            <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
              {file ? file.name : 'No file chosen'}
            </Typography>
          </Stack>
          {error && <Alert severity="error">{error}</Alert>}
          {result && (
            <Alert
              severity={result.counts.error > 0 ? 'warning' : 'success'}
              action={
                downloadUrl && (
                  <Button
                    color="inherit"
                    size="small"
                    startIcon={<Download />}
                    href={downloadUrl}
                    download={result.fileDownloadName}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    Result file
                  </Button>
                )
              }
            >
              {[
                plural(result.counts.created, 'site added', 'sites added'),
                `${result.counts.updated} updated`,
                `${result.counts.skipped} unchanged`,
                plural(result.counts.error, 'row with errors', 'rows with errors'),
              ].join(', ')}
              . The result file gives each row's status and reason.
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={upload.isPending}>
          {result ? 'Close' : 'Cancel'}
        </Button>
        <Button variant="contained" onClick={send} loading={upload.isPending} disabled={!file || Boolean(error) || Boolean(result)}>
          Upload
        </Button>
      </DialogActions>
    </Dialog>
  );
}
