import { formatPhone, messages, type User } from '@petreg/contract';
import { CheckCircle } from '@mui/icons-material';
import { Alert, Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { firstError } from '../../app/api';
import { toast } from '../../app/toast';
import { useSendPhoneCode, useVerifyPhone } from './api';

/**
 * Whether the profile's mobile number is proven: the portal texts it only then. Unproven, a field
 * takes the 6-digit code texted to it, and a new code can be asked for.
 */
export function PhoneVerification({ user, onVerified }: { user: User; onVerified: (user: User) => void }) {
  const verify = useVerifyPhone();
  const sendCode = useSendPhoneCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const phone = user.data.phoneNumber;
  if (!phone) return null;

  if (user.data.phoneVerified) {
    return <Chip icon={<CheckCircle />} color="success" variant="outlined" size="small" label="Verified" aria-label={`Phone number ${formatPhone(phone)} verified`} />;
  }

  const submit = () => {
    if (code.length !== 6) return;
    setError(null);
    verify.mutate(code.trim(), {
      onSuccess: (saved) => {
        setCode('');
        toast(messages.phoneVerified, { variant: 'success' });
        onVerified(saved);
      },
      onError: (failure) => setError(firstError(failure, messages.genericError)),
    });
  };
  const sendNew = () => {
    setError(null);
    sendCode.mutate(undefined, {
      onSuccess: () => toast(messages.phoneCodeSent, { variant: 'success', duration: 6000 }),
      onError: (failure) => setError(firstError(failure, messages.genericError)),
    });
  };

  return (
    // Not a form of its own: it sits inside the profile's form, which must not submit with it.
    <Box role="group" aria-label="Verify your phone number">
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Chip color="warning" variant="outlined" size="small" label="Not verified" />
          <Typography variant="body2" color="text.secondary">
            We text {formatPhone(phone)} only once it is verified. Enter the 6-digit code we texted to it.
          </Typography>
        </Stack>
        {error && (
          <Alert severity="error" onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label="6-digit code"
            size="small"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              submit();
            }}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } }}
            sx={{ width: { sm: 140 } }}
          />
          <Button variant="contained" onClick={submit} disabled={code.length !== 6 || verify.isPending}>
            Verify
          </Button>
          <Button onClick={sendNew} disabled={sendCode.isPending}>
            Send a new code
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
