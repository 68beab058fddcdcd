import { messages, siteImportLimits } from '@petreg/contract';
import { Download } from '@mui/icons-material';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link, Stack } from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { CsvFileField } from './CsvFileField';
import { plural, saveFile, useDownloadUrl } from './resultFile';
import { useImportSites } from './sitesApi';

export const sitesTemplateUrl = '/templates/sites-import-template.csv';

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
    // The result file downloads at once, as the pet upload's does; the dialog keeps it to download again.
    if (file) upload.mutate(file, { onSuccess: saveFile, onError: (failure) => setError(firstError(failure, messages.genericError)) });
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
          <CsvFileField file={file} onChoose={choose} />
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
