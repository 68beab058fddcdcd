import {
  changePasswordSchema,
  confirmEmailSchema,
  fileParams,
  forgotPasswordSchema,
  idParams,
  profileSchema,
  setPasswordByTokenSchema,
  signInSchema,
  signUpEmailSchema,
  signUpSchema,
  socialLoginSchema,
  userSettingsSchema,
  verifyPhoneSchema,
} from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, perEmail, perIp, perUser, sendImage, sendKeptAnswer, withImageBodyLimit } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { UserService } from './service.js';
import type { SocialVerifier } from './social.js';

const MINUTE = 60_000;
export const limits = {
  signUp: { max: 10, window: MINUTE },
  // Per account, and per account and address, the service counts attempts itself (signIn.ts).
  login: { ip: { max: 30, window: MINUTE } },
  forgotPassword: { ip: { max: 10, window: MINUTE }, email: { max: 5, window: 60 * MINUTE } },
  setPassword: { ip: { max: 10, window: MINUTE }, email: { max: 10, window: 60 * MINUTE } },
  confirmEmail: { ip: { max: 10, window: MINUTE } },
  resendConfirmation: { max: 3, window: 60 * MINUTE },
  // The service holds an account to 3 codes an hour and 5 wrong tries a code; this bounds the calls.
  phoneCode: { max: 10, window: MINUTE },
  // A sign-up with a closed account's address mails its owner a link: held like forgot-password.
  signUpEmail: { max: 5, window: 60 * MINUTE },
  emailExists: { ip: { max: 30, window: MINUTE }, email: { max: 20, window: MINUTE } },
};

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService; social: SocialVerifier }> = async (
  app,
  { users, social },
) => {
  const tags = ['Users'];

  app.post(
    '/Users/signup',
    { schema: { tags, body: signUpSchema }, config: perIp(limits.signUp), preHandler: perEmail(app, 'sign-up', limits.signUpEmail) },
    async (request) => answer(await users.signUp(request.body, request.ip)),
  );

  app.post(
    '/Users/login',
    {
      schema: { tags, body: signInSchema },
      config: perIp(limits.login.ip),
    },
    async (request) => {
      const { email, password, remember } = request.body;
      return answer(await users.login(email, password, remember ?? false, request.ip));
    },
  );

  app.post('/Users/google-login', { schema: { tags, body: socialLoginSchema }, config: perIp(limits.login.ip) }, async (request) =>
    answer(await users.socialLogin(await social.google(request.body.token), request.ip)),
  );

  app.post('/Users/facebook-login', { schema: { tags, body: socialLoginSchema }, config: perIp(limits.login.ip) }, async (request) =>
    answer(await users.socialLogin(await social.facebook(request.body.token), request.ip)),
  );

  app.get(
    '/Users/email-exists',
    {
      schema: { tags, querystring: signUpEmailSchema },
      config: perIp(limits.emailExists.ip),
      preHandler: perEmail(app, 'email-exists', limits.emailExists.email),
    },
    async (request) => answer(await users.emailExists(request.query.email)),
  );

  app.post(
    '/Users/forgot-password',
    {
      schema: { tags, body: forgotPasswordSchema },
      config: perIp(limits.forgotPassword.ip),
      preHandler: perEmail(app, 'forgot-password', limits.forgotPassword.email),
    },
    async (request) => {
      await users.forgotPassword(request.body.email);
      return answer(true);
    },
  );

  app.post(
    '/Users/set-password-by-token',
    {
      schema: { tags, body: setPasswordByTokenSchema },
      config: perIp(limits.setPassword.ip),
      preHandler: perEmail(app, 'set-password', limits.setPassword.email),
    },
    async (request) => {
      await users.setPasswordByToken(request.body, request.ip);
      return answer(true);
    },
  );

  // Public: opened from the link mailed to the address, signed in or not.
  app.post('/Users/confirm-email', { schema: { tags, body: confirmEmailSchema }, config: perIp(limits.confirmEmail.ip) }, async (request) =>
    answer(await users.confirmEmail(request.body.token)),
  );

  app.post(
    '/Users/resend-email-confirmation',
    { schema: { tags }, config: { auth: 'signedIn', ...perUser(limits.resendConfirmation) } },
    async (request) => {
      await users.resendEmailConfirmation(sessionOf(request));
      return answer(true);
    },
  );

  app.post('/Users/send-phone-code', { schema: { tags }, config: { auth: 'signedIn', ...perUser(limits.phoneCode) } }, async (request) => {
    await users.sendPhoneCode(sessionOf(request));
    return answer(true);
  });

  app.post(
    '/Users/verify-phone',
    { schema: { tags, body: verifyPhoneSchema }, config: { auth: 'signedIn', ...perUser(limits.phoneCode) } },
    async (request) => answer(await users.verifyPhone(sessionOf(request), request.body.code)),
  );

  app.get('/Users/token-login', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await users.tokenLogin(sessionOf(request))),
  );

  app.get('/Users/current-user', { schema: { tags }, config: { auth: 'signedIn' } }, async (request, reply) =>
    sendKeptAnswer(reply, await users.loadUser(sessionOf(request).userId)),
  );

  app.put(
    '/Users/:id',
    {
      schema: { tags, params: idParams, body: profileSchema },
      config: { auth: 'signedIn' },
      bodyLimit: withImageBodyLimit,
    },
    async (request) => answer(await users.updateProfile(sessionOf(request), request.params.id, request.body, request.ip)),
  );

  app.post('/Users/ChangeUserPassword', { schema: { tags, body: changePasswordSchema }, config: { auth: 'signedIn' } }, async (request) => {
    await users.changePassword(sessionOf(request), request.body, request.ip);
    return answer(true);
  });

  app.get('/Users/deactivate-user', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) => {
    await users.deactivate(sessionOf(request));
    return answer(true);
  });

  app.post('/Users/logout', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) => {
    await app.sessions.revoke(sessionOf(request).sessionId);
    return answer(true);
  });

  // Public: the owner's photo shows on the public profile of a missing pet; names are random.
  app.get('/Users/user-images/:file', { schema: { tags, params: fileParams } }, async (request, reply) => {
    return sendImage(reply, await users.image(request.params.file));
  });

  app.post('/auth/user/update', { schema: { tags, body: userSettingsSchema }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await users.updateSettings(sessionOf(request), request.body)),
  );
};
