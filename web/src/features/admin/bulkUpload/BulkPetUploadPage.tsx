import { messages, petUploadBreedSeparator, petUploadFormSchema, petUploadLimits, type PetUploadResult } from '@petreg/contract';
import { Download, Send } from '@mui/icons-material';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { firstError } from '../../../app/api';
import { PageHeader } from '../../../components/PageHeader';
import { SectionCard } from '../../../components/SectionCard';
import { CsvFileField } from '../CsvFileField';
import { plural, saveFile, useDownloadUrl } from '../resultFile';
import { useBulkPetUpload, usePetUploadAllowedValues } from './api';

export const petUploadTemplateUrl = '/templates/bulk-pet-upload-template.csv';

/** A CSV by its name or type: browsers give some CSV files no type, and spreadsheets' own types. */
const isCsv = (file: File) => /\.csv$/i.test(file.name) || file.type === 'text/csv';

/** bulk-pet-upload (spec 2.7): a shelter's CSV of pets, registered to their owners or to the shelter. */
export function BulkPetUploadPage() {
  const upload = useBulkPetUpload();
  const allowedValues = usePetUploadAllowedValues();
  const [file, setFile] = useState<File | null>(null);
  const [email, setEmail] = useState('');
  const [emailTouched, setEmailTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const result = upload.data;
  const emailValid = petUploadFormSchema.safeParse({ email }).success;
  const ready = file !== null && emailValid;

  const choose = (chosen: File | null) => {
    upload.reset();
    if (chosen && !isCsv(chosen)) {
      setError(messages.bulkUploadFileRequired);
      setFile(null);
      return;
    }
    setError(chosen && chosen.size > petUploadLimits.maxFileBytes ? messages.petCsvTooLarge : null);
    setFile(chosen && chosen.size <= petUploadLimits.maxFileBytes ? chosen : null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !emailValid) {
      setError(messages.bulkUploadIncomplete);
      return;
    }
    setError(null);
    upload.mutate(
      { file, email },
      {
        // The answer is a file: it downloads at once, and stays on the page to download again.
        onSuccess: saveFile,
        onError: (failure) => setError(firstError(failure, messages.genericError)),
      },
    );
  };

  return (
    <>
      <PageHeader title="Pet Upload" subtitle="Register a shelter's pets from a CSV file: each to its owner's account, or to the shelter's." />
      <Stack spacing={3} sx={{ maxWidth: 720 }}>
        <SectionCard title="Upload a CSV file">
          <Stack component="form" spacing={2.5} noValidate onSubmit={submit}>
            <Typography color="text.secondary">
              One pet a row, with the columns of the template. A row with an owner's email registers the pet to that owner (a new owner is invited by
              email to set a password, an existing one is told by email); a row without registers it to the shelter. Breeds are separated by “{petUploadBreedSeparator}”; dates are
              MM/DD/YYYY or YYYY-MM-DD. The template's example row is skipped; the allowed values list the species, sexes, chip brands and states a file may name.
              Pets start unpaid, as if their owner had registered them.
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'flex-start' }}>
              <Button href={petUploadTemplateUrl} download startIcon={<Download />}>
                Download template
              </Button>
              <Button
                startIcon={<Download />}
                loading={allowedValues.isPending}
                onClick={() =>
                  allowedValues.mutate(undefined, { onSuccess: saveFile, onError: (failure) => setError(firstError(failure, messages.genericError)) })
                }
              >
                Download allowed values
              </Button>
            </Stack>
            <CsvFileField file={file} onChoose={choose} disabled={upload.isPending} />
            <TextField
              label="Shelter email"
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              onBlur={() => setEmailTouched(true)}
              disabled={!file || upload.isPending}
              error={emailTouched && email !== '' && !emailValid}
              helperText={emailTouched && email !== '' && !emailValid ? messages.bulkUploadEmailInvalid : 'Pets without an owner email are registered to this account.'}
              autoComplete="email"
              fullWidth
            />
            {error && <Alert severity="error">{error}</Alert>}
            <Button type="submit" variant="contained" startIcon={<Send />} loading={upload.isPending} disabled={!ready} sx={{ alignSelf: 'flex-start' }}>
              Submit
            </Button>
          </Stack>
        </SectionCard>
        {result && <UploadSummary result={result} />}
      </Stack>
    </>
  );
}

/** How many rows ended each way, and the result file to download again. */
function UploadSummary({ result }: { result: PetUploadResult }) {
  const downloadUrl = useDownloadUrl(result);
  const { created, skipped, error } = result.counts;
  return (
    <Alert severity={error > 0 ? 'warning' : 'success'} aria-label="Upload summary">
      {[plural(created, 'pet registered', 'pets registered'), `${skipped} skipped (already registered)`, plural(error, 'row with errors', 'rows with errors')].join(', ')}
      . The result file gives each row's status and reason.
      {downloadUrl && (
        <Button color="inherit" size="small" startIcon={<Download />} href={downloadUrl} download={result.fileDownloadName} sx={{ display: 'flex', mt: 1, width: 'fit-content' }}>
          Result file
        </Button>
      )}
    </Alert>
  );
}
