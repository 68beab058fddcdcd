import { messages, type AuthResult, type User } from '@petreg/contract';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { accessToken, api, setUnauthorizedHandler } from '../../app/api';
import { toast } from '../../app/toast';
import { CenteredSpinner } from '../../components/CenteredSpinner';

/** Session events of spec section 4 and the toasts they show. */
const eventMessages = {
  signedIn: 'Signed in',
  signedUp: 'Signed up',
  signedOut: 'Signed out',
} as const;

type SessionState = { status: 'loading' } | { status: 'guest' } | { status: 'authenticated'; user: User };

interface Session {
  /** The signed-in user, or null for a guest. */
  user: User | null;
  signIn: (result: AuthResult) => void;
  signUp: (result: AuthResult) => void;
  /** Ends the session; `serverAlreadyEnded` skips the logout call when the server ended it itself. */
  signOut: (options?: { serverAlreadyEnded?: boolean }) => Promise<void>;
  /** Replaces the user after the server answered a changed one (profile save). */
  updateUser: (user: User) => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}

/** True when the JWT cannot be read or its `exp` has passed. */
function isExpired(token: string): boolean {
  const payload = token.split('.')[1];
  if (!payload) return true;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now();
  } catch {
    return true;
  }
}

function startupState(): SessionState {
  const token = accessToken.get();
  if (!token || isExpired(token)) return { status: 'guest' };
  return { status: 'loading' };
}

/** How a stored session came back at start-up; a guest's message says why a stored one ended. */
export type ResumedSession = { status: 'guest'; message?: string } | { status: 'authenticated'; user: User };

/**
 * Start-up (spec 4): an expired token logs out, a valid one logs in again and gets a fresh token.
 * Rejects only when aborted.
 */
export async function resumeSession(signal?: AbortSignal): Promise<ResumedSession> {
  const token = accessToken.get();
  if (!token) return { status: 'guest' };
  if (isExpired(token)) {
    accessToken.clear();
    return { status: 'guest', message: messages.invalidAccessToken };
  }
  try {
    const result = await api.get<AuthResult>('Users/token-login', { ignoreUnauthorized: true, signal });
    accessToken.set(result.token);
    return { status: 'authenticated', user: result.user };
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error(error);
    accessToken.clear();
    return { status: 'guest', message: messages.tokenLoginFailed };
  }
}

/**
 * `resumed`: the session as known before the first render: a page the server renders is rendered as a
 * guest's (the server reads no stored token), not as the spinner of a session loading.
 */
export function SessionProvider({ resumed, children }: { resumed?: ResumedSession; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>(() => resumed ?? startupState());
  const signingOut = useRef<Promise<void> | null>(null);

  const end = useCallback(
    (message?: string) => {
      accessToken.clear();
      queryClient.clear();
      setState({ status: 'guest' });
      if (message) toast(message, { variant: 'error' });
    },
    [queryClient],
  );

  useEffect(() => {
    if (resumed) {
      if (resumed.status === 'guest' && resumed.message) toast(resumed.message, { variant: 'error' });
      return;
    }
    if (!accessToken.get()) return;
    const controller = new AbortController();
    resumeSession(controller.signal).then(
      (session) => (session.status === 'authenticated' ? setState(session) : end(session.message)),
      () => undefined, // aborted: the component went away
    );
    return () => controller.abort();
  }, [end, resumed]);

  useEffect(() => {
    setUnauthorizedHandler(() => end(messages.invalidAccessToken));
    return () => setUnauthorizedHandler(null);
  }, [end]);

  const start = useCallback((result: AuthResult, message: string) => {
    accessToken.set(result.token);
    setState({ status: 'authenticated', user: result.user });
    toast(message, { variant: 'success' });
  }, []);

  const signOut = useCallback((options?: { serverAlreadyEnded?: boolean }): Promise<void> => {
    if (!accessToken.get()) {
      setState({ status: 'guest' });
      return Promise.resolve();
    }
    const logout = options?.serverAlreadyEnded
      ? Promise.resolve()
      : api
          .post<boolean>('Users/logout', {}, { ignoreUnauthorized: true })
          .catch((error: unknown) => console.warn('Logout call failed; ending the session locally.', error));
    // The logout screen may ask twice (React strict mode); one server call is enough.
    signingOut.current ??= logout
      .then(() => {
        end();
        toast(eventMessages.signedOut);
        signingOut.current = null;
      });
    return signingOut.current;
  }, [end]);

  const value = useMemo<Session>(
    () => ({
      user: state.status === 'authenticated' ? state.user : null,
      signIn: (result) => start(result, eventMessages.signedIn),
      signUp: (result) => start(result, eventMessages.signedUp),
      signOut,
      updateUser: (user) => setState({ status: 'authenticated', user }),
    }),
    [state, start, signOut],
  );

  if (state.status === 'loading') return <CenteredSpinner fullScreen />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
