import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ServiceError } from '../errors';
import { publicPageGuard } from '../http/public-pages';
import { SignInThrottle, accountKey } from './sign-in-throttle';
import { refuseCrossSiteSignIn } from '../auth/session-auth';
import { requestPasswordReset, resetPassword } from './password-reset';
import { ForgotPasswordBody, ResetPasswordBody, okResponses } from './schemas';

/**
 * Forgotten passwords (docs "Accounts and sign-in", "Forgotten password"), no credential needed:
 * `POST /api/v1/auth/password/forgot {login}` answers `{ok: true}` whether or not the account
 * exists (a mail goes out only when it does, has an email and mail is configured), throttled per
 * login text and per caller address like sign-in (429 `RATE_LIMITED` with `Retry-After`, the same
 * for every login); `POST /api/v1/auth/password/reset {token, password}` sets the password with a
 * mailed link, once, and signs the account out everywhere.
 */
export const passwordResetRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const services = app.services;
  const noStore = publicPageGuard();
  // Every request counts, found or not, so the throttle tells nothing about accounts.
  const throttle = new SignInThrottle(services.clock);

  function admit(reply: FastifyReply, key: string, address: string, field: string): void {
    const wait = throttle.take(key, address);
    if (wait > 0) {
      reply.header('Retry-After', wait);
      throw new ServiceError(429, 'RATE_LIMITED', `too many requests; try again in ${wait} seconds`, {
        field,
        reason: 'too_many_requests',
      });
    }
  }

  app.post(
    '/api/v1/auth/password/forgot',
    {
      config: { auth: 'none' },
      onRequest: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link; the same answer whether or not the account exists',
        security: [],
        body: ForgotPasswordBody,
        response: okResponses,
      },
    },
    async (request, reply) => {
      refuseCrossSiteSignIn(services, request);
      admit(reply, `forgot:${accountKey(undefined, request.body.login)}`, request.ip, 'login');
      if (await services.store.run(requestPasswordReset(services, request.body.login))) services.signals?.notify('mail');
      return { ok: true };
    },
  );

  app.post(
    '/api/v1/auth/password/reset',
    {
      config: { auth: 'none' },
      onRequest: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed reset link (once); ends every session of the account',
        security: [],
        body: ResetPasswordBody,
        response: okResponses,
      },
    },
    async (request, reply) => {
      refuseCrossSiteSignIn(services, request);
      const key = `reset:${request.ip}`;
      admit(reply, key, request.ip, 'token');
      await resetPassword(services, request.body.token, request.body.password);
      throttle.succeed(key, request.ip);
      return { ok: true };
    },
  );
};
