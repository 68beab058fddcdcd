import { limits, messages } from '@petreg/contract';
import { Delete, PhotoCamera } from '@mui/icons-material';
import { Alert, Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import { useId, useState, type DragEvent } from 'react';
import { FileButton } from './FileButton';

interface ImageFieldProps {
  /** What the photo is of, e.g. "Pet photo": names the drop area and the preview. */
  label: string;
  /** A data URL of a newly chosen image, the stored image's name, or null. */
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  /** What to show for the current value when it is not a new image: the stored photo or the species picture. */
  previewSrc: string;
  disabled?: boolean;
  /** The form's message about the photo, such as a required photo still missing. */
  error?: string;
}

/** Bytes a data URL decodes to, estimated from its base64 length. */
function decodedSize(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return Math.floor((base64.length * 3) / 4);
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** A photo dropped on the frame or picked from the device; images only (spec 5). */
export function ImageField({ label, value, onChange, previewSrc, disabled = false, error }: ImageFieldProps) {
  const errorId = useId();
  // Why the last chosen file was refused, or null.
  const [refused, setRefused] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const isNew = Boolean(value?.startsWith('data:'));
  // Spec 2.4: an image over the size limit may take a while to upload.
  const large = value && isNew ? decodedSize(value) > limits.imageBytesMax : false;

  const accept = async (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setRefused(messages.onlyImages);
      return;
    }
    // The server refuses a larger image (413); say so before the upload, not after it.
    if (file.size > limits.imageUploadBytesMax) {
      setRefused(messages.imageTooLarge);
      return;
    }
    setRefused(null);
    try {
      onChange(await readAsDataUrl(file));
    } catch {
      setRefused(messages.onlyImages);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) void accept(event.dataTransfer.files[0]);
  };

  return (
    <Stack spacing={1.5}>
      <Box
        role="group"
        aria-label={label}
        aria-describedby={error ? errorId : undefined}
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          display: 'flex',
          gap: 2,
          alignItems: 'center',
          p: 2,
          border: 2,
          borderStyle: 'dashed',
          borderRadius: 2,
          borderColor: dragging ? 'primary.main' : error ? 'error.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'transparent',
          transition: 'border-color 120ms, background-color 120ms',
        }}
      >
        <Box
          component="img"
          src={isNew && value ? value : previewSrc}
          alt={value ? `${label} preview` : 'No photo yet'}
          sx={{ width: 96, height: 96, borderRadius: 2, objectFit: 'cover', flexShrink: 0, bgcolor: 'grey.100' }}
        />
        <Stack spacing={1} sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {disabled ? 'Photo' : 'Drag a photo here, or'}
          </Typography>
          {!disabled && (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              <FileButton
                variant="outlined"
                size="small"
                startIcon={<PhotoCamera />}
                accept="image/*"
                inputLabel="Choose a photo"
                onChoose={(file) => void accept(file)}
              >
                Choose a photo
              </FileButton>
              {value && (
                <Button size="small" color="inherit" startIcon={<Delete />} onClick={() => onChange(null)}>
                  Remove photo
                </Button>
              )}
            </Stack>
          )}
        </Stack>
      </Box>
      {error && (
        <FormHelperText id={errorId} error sx={{ mx: 1.75 }}>
          {error}
        </FormHelperText>
      )}
      {refused && (
        <Alert severity="error" onClose={() => setRefused(null)}>
          {refused}
        </Alert>
      )}
      {large && <Alert severity="info">This is a high-quality image, so it may take a minute to upload.</Alert>}
    </Stack>
  );
}
