import { zodResolver } from '@hookform/resolvers/zod';
import { apiKeyIssueSchema, messages, type ApiKeyIssueInput, type IssuedApiKey } from '@petreg/contract';
import { ContentCopy } from '@mui/icons-material';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, MenuItem, Stack } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { firstError } from '../../../app/api';
import { toast } from '../../../app/toast';
import { FormTextField } from '../../../components/FormTextField';
import { useIssueApiKey } from './apiKeysApi';

const newKey: ApiKeyIssueInput = { name: '', requests: 60, per: 'minute' };

/** Issue a key: who holds it and its limit; then the key itself, shown this once, with a copy button. */
export function IssueApiKeyDialog({ onClose }: { onClose: () => void }) {
  const issue = useIssueApiKey();
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { control, handleSubmit } = useForm({ resolver: zodResolver(apiKeyIssueSchema), defaultValues: newKey });

  const submit = handleSubmit((input) => {
    setError(null);
    issue.mutate(input, {
      onSuccess: (answer) => {
        setIssued(answer);
        toast(messages.apiKeyIssued, { variant: 'success' });
      },
      onError: (failure) => setError(firstError(failure, messages.genericError)),
    });
  });

  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      toast('API key copied', { variant: 'success' });
    } catch {
      toast('Copy failed: select the key and copy it by hand.', { variant: 'warning' });
    }
  };

  if (issued) {
    return (
      <Dialog open onClose={onClose} aria-labelledby="api-key-issued-title" fullWidth maxWidth="sm">
        <DialogTitle id="api-key-issued-title">API key for {issued.entry.name}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            Copy the key now and give it to its holder: it is not shown again. The registry keeps only a fingerprint of it.
          </Alert>
          <Box
            component="code"
            aria-label="API key"
            sx={{ display: 'block', p: 1.5, bgcolor: 'grey.100', borderRadius: 1, overflowWrap: 'anywhere', fontSize: '0.95rem' }}
          >
            {issued.key}
          </Box>
          <DialogContentText sx={{ mt: 2 }}>
            Send it as <code>X-Api-Key: &lt;key&gt;</code> or <code>Authorization: Bearer &lt;key&gt;</code> with{' '}
            <code>GET /api/v2/public/lookup/&lt;chip number&gt;</code>.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button startIcon={<ContentCopy />} onClick={() => void copy(issued.key)}>
            Copy key
          </Button>
          <Button variant="contained" onClick={onClose}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby="api-key-dialog-title" fullWidth maxWidth="sm">
      <Stack
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="api-key-dialog-title">Issue an API key</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField
              control={control}
              name="name"
              label="Holder"
              required
              autoFocus
              fullWidth
              helperText="The shelter, clinic or registry the key is for."
            />
            <Stack direction="row" spacing={2}>
              <FormTextField control={control} name="requests" label="Requests" type="number" required fullWidth />
              <FormTextField control={control} name="per" label="Per" select required fullWidth>
                <MenuItem value="minute">minute</MenuItem>
                <MenuItem value="hour">hour</MenuItem>
              </FormTextField>
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={issue.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={issue.isPending}>
            Issue key
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
