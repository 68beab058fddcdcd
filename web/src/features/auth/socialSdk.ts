/** The small parts of Google Identity Services and the Facebook JS SDK that sign-in uses. */
interface GoogleIdentity {
  initialize(config: { client_id: string; callback: (response: { credential?: string }) => void }): void;
  renderButton(parent: HTMLElement, options: { type: 'standard'; theme: 'outline'; size: 'large'; text: 'continue_with'; width: number }): void;
}

interface FacebookSdk {
  init(options: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
  login(callback: (response: { authResponse?: { accessToken: string } | null }) => void, options: { scope: string }): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleIdentity } };
    FB?: FacebookSdk;
  }
}

const loaded = new Map<string, Promise<void>>();

/** Adds a third-party script once; the SDKs load only when someone chooses that provider. */
function loadScript(src: string): Promise<void> {
  let promise = loaded.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loaded.delete(src);
        script.remove();
        reject(new Error(`Could not load ${src}`));
      };
      document.head.append(script);
    });
    loaded.set(src, promise);
  }
  return promise;
}

/** Renders Google's own button into `parent`; `onCredential` receives the ID token after the person picks an account. */
export async function renderGoogleButton(
  parent: HTMLElement,
  clientId: string,
  onCredential: (idToken: string) => void,
): Promise<void> {
  await loadScript('https://accounts.google.com/gsi/client');
  const identity = window.google?.accounts.id;
  if (!identity) throw new Error('Google Identity Services did not start');
  identity.initialize({
    client_id: clientId,
    callback: ({ credential }) => {
      if (credential) onCredential(credential);
    },
  });
  identity.renderButton(parent, { type: 'standard', theme: 'outline', size: 'large', text: 'continue_with', width: 280 });
}

let facebookAppId: string | null = null;

/** Opens Facebook's login window; answers the user access token, or null when the person cancels. */
export async function facebookAccessToken(appId: string): Promise<string | null> {
  await loadScript('https://connect.facebook.net/en_US/sdk.js');
  const sdk = window.FB;
  if (!sdk) throw new Error('Facebook SDK did not start');
  if (facebookAppId !== appId) {
    sdk.init({ appId, version: 'v21.0', cookie: false, xfbml: false });
    facebookAppId = appId;
  }
  return new Promise((resolve) => {
    sdk.login((response) => resolve(response.authResponse?.accessToken ?? null), { scope: 'email' });
  });
}
