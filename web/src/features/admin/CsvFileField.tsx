import { UploadFile } from '@mui/icons-material';
import { Stack, Typography } from '@mui/material';
import { FileButton } from '../../components/FileButton';

/** Choose file, and the chosen file's name beside it: the file field of the administrators' CSV uploads. */
export function CsvFileField({ file, onChoose, disabled }: { file: File | null; onChoose: (file: File | null) => void; disabled?: boolean }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <FileButton
        variant="outlined"
        startIcon={<UploadFile />}
        disabled={disabled}
        sx={{ flexShrink: 0 }}
        accept=".csv,text/csv"
        inputLabel="CSV file"
        onChoose={(chosen) => onChoose(chosen ?? null)}
      >
        Choose file
      </FileButton>
      <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
        {file ? file.name : 'No file chosen'}
      </Typography>
    </Stack>
  );
}
