import { messages } from '@petreg/contract';
import { Facebook, Google } from '@mui/icons-material';
import { Box, Button, CircularProgress, Dialog, DialogContent, DialogTitle, Divider, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { firstError } from '../../app/api';
import { usePublicSettings } from '../../app/settings';
import { useSocialSignInRequest, type SocialProvider } from './api';
import { useSession } from './session';
import { facebookAccessToken, renderGoogleButton } from './socialSdk';

interface SocialSignInProps {
  /** Failures show against the e-mail field of the page (spec 8). */
  onError: (message: string) => void;
}

/** Google and Facebook sign-in, shown only for the providers the server has keys for. */
export function SocialSignIn({ onError }: SocialSignInProps) {
  const settings = usePublicSettings();
  const session = useSession();
  const request = useSocialSignInRequest();
  const [googleOpen, setGoogleOpen] = useState(false);
  const [facebookBusy, setFacebookBusy] = useState(false);

  const exchange = useCallback(
    (provider: SocialProvider, token: string) =>
      request.mutate(
        { provider, token },
        {
          onSuccess: session.signIn,
          onError: (error) => onError(firstError(error, messages.socialSignInFailed)),
        },
      ),
    [request, session.signIn, onError],
  );

  const googleClientId = settings.data?.socialSignIn.googleClientId;
  const facebookAppId = settings.data?.socialSignIn.facebookAppId;
  if (!googleClientId && !facebookAppId) return null;

  const signInWithFacebook = async (appId: string) => {
    setFacebookBusy(true);
    try {
      const token = await facebookAccessToken(appId);
      if (token) exchange('facebook', token);
    } catch (error) {
      console.error(error);
      onError(messages.socialSignInFailed);
    } finally {
      setFacebookBusy(false);
    }
  };

  return (
    <Stack spacing={1.5}>
      <Divider>
        <Typography variant="body2" color="text.secondary">
          or
        </Typography>
      </Divider>
      {googleClientId && (
        <Button variant="outlined" size="large" startIcon={<Google />} onClick={() => setGoogleOpen(true)} disabled={request.isPending}>
          Continue with Google
        </Button>
      )}
      {facebookAppId && (
        <Button
          variant="outlined"
          size="large"
          startIcon={facebookBusy ? <CircularProgress size={18} /> : <Facebook />}
          onClick={() => void signInWithFacebook(facebookAppId)}
          disabled={facebookBusy || request.isPending}
        >
          Continue with Facebook
        </Button>
      )}
      {googleClientId && googleOpen && (
        <GoogleDialog
          clientId={googleClientId}
          onClose={() => setGoogleOpen(false)}
          onCredential={(token) => {
            setGoogleOpen(false);
            exchange('google', token);
          }}
          onError={(message) => {
            setGoogleOpen(false);
            onError(message);
          }}
        />
      )}
    </Stack>
  );
}

interface GoogleDialogProps {
  clientId: string;
  onClose: () => void;
  onCredential: (token: string) => void;
  onError: (message: string) => void;
}

/** Google's account picker starts from Google's own button, which needs its script loaded first. */
function GoogleDialog({ clientId, onClose, onCredential, onError }: GoogleDialogProps) {
  const [ready, setReady] = useState(false);
  // The dialog's content mounts a moment after the dialog, so the button's container arrives by ref.
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const credentialReceived = useEffectEvent(onCredential);
  const failed = useEffectEvent(onError);

  useEffect(() => {
    if (!container) return;
    renderGoogleButton(container, clientId, (token) => credentialReceived(token))
      .then(() => setReady(true))
      .catch((error: unknown) => {
        console.error(error);
        failed(messages.socialSignInFailed);
      });
  }, [container, clientId]);

  return (
    <Dialog open onClose={onClose} aria-labelledby="google-sign-in-title">
      <DialogTitle id="google-sign-in-title">Continue with Google</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', placeItems: 'center', minWidth: 280, minHeight: 60 }}>
          {!ready && <CircularProgress size={28} aria-label="Loading" />}
          <div ref={setContainer} />
        </Box>
      </DialogContent>
    </Dialog>
  );
}
