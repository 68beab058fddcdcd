import { UploadFile } from '@mui/icons-material';
import { Button, Stack, Typography } from '@mui/material';

/** Choose file, and the chosen file's name beside it: the file field of the administrators' CSV uploads. */
export function CsvFileField({ file, onChoose, disabled }: { file: File | null; onChoose: (file: File | null) => void; disabled?: boolean }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <Button component="label" variant="outlined" startIcon={<UploadFile />} disabled={disabled} sx={{ flexShrink: 0 }}>
        Choose file
        <input
          hidden
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          onChange={(event) => {
            onChoose(event.target.files?.[0] ?? null);
            // Choosing the same file again after fixing it must still count as a choice.
            event.target.value = '';
          }}
        />
      </Button>
      <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
        {file ? file.name : 'No file chosen'}
      </Typography>
    </Stack>
  );
}
