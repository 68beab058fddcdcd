import { messages } from '@petreg/contract';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config } from '../../config.js';
import { AppError, badRequest } from '../../errors.js';
import type { VerifiedSocialProfile } from './signUp.js';

export interface SocialVerifier {
  google(idToken: string): Promise<VerifiedSocialProfile>;
  facebook(accessToken: string): Promise<VerifiedSocialProfile>;
}

const disabled = () => new AppError(404, [messages.socialSignInDisabled]);
const failed = () => badRequest(messages.socialSignInFailed);

/**
 * Checks a sign-in provider's token with the provider itself; nothing the browser says about
 * the person is trusted. Key and API addresses come from configuration so tests use local ones.
 */
export function createSocialVerifier(config: Pick<Config, 'google' | 'facebook'>): SocialVerifier {
  const googleKeys = createRemoteJWKSet(new URL(config.google.jwksUrl));

  async function graph<T>(path: string, params: Record<string, string>): Promise<T> {
    const response = await fetch(`${config.facebook.graphUrl}/${path}?${new URLSearchParams(params)}`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw failed();
    return (await response.json()) as T;
  }

  return {
    async google(idToken) {
      const clientId = config.google.clientId;
      if (!clientId) throw disabled();
      const { payload } = await jwtVerify(idToken, googleKeys, {
        issuer: config.google.issuers,
        audience: clientId,
      }).catch(() => {
        throw failed();
      });
      if (typeof payload.email !== 'string' || payload.email_verified !== true || !payload.sub) {
        throw badRequest(messages.socialEmailMissing);
      }
      return {
        provider: 'google',
        providerUserId: payload.sub,
        email: payload.email,
        firstName: typeof payload.given_name === 'string' ? payload.given_name : payload.email.split('@')[0]!,
        lastName: typeof payload.family_name === 'string' ? payload.family_name : '',
      };
    },

    async facebook(accessToken) {
      const { appId, appSecret } = config.facebook;
      if (!appId || !appSecret) throw disabled();
      const debug = await graph<{ data?: { is_valid?: boolean; app_id?: string; user_id?: string } }>('debug_token', {
        input_token: accessToken,
        access_token: `${appId}|${appSecret}`,
      });
      if (!debug.data?.is_valid || debug.data.app_id !== appId || !debug.data.user_id) throw failed();
      const me = await graph<{ id?: string; email?: string; first_name?: string; last_name?: string }>('me', {
        fields: 'id,email,first_name,last_name',
        access_token: accessToken,
      });
      if (me.id !== debug.data.user_id) throw failed();
      if (!me.email) throw badRequest(messages.socialEmailMissing);
      return {
        provider: 'facebook',
        providerUserId: me.id,
        email: me.email,
        firstName: me.first_name ?? me.email.split('@')[0]!,
        lastName: me.last_name ?? '',
      };
    },
  };
}
