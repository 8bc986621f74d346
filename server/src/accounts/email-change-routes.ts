import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ServiceError, badRequest } from '../errors';
import { publicPageGuard } from '../http/public-pages';
import { SignInThrottle, accountKey } from './sign-in-throttle';
import { refuseCrossSiteSignIn } from '../auth/session-auth';
import { credentialsOf } from './credentials';
import { verifyPassword } from './passwords';
import { confirmEmailChange, emailStatus, requestEmailChange } from './email-change';
import { EmailChangeBody, EmailVerifyBody, emailStatusResponses } from './schemas';

/** Throws 429 RATE_LIMITED with `Retry-After` (s) while `throttle` holds `key` back. */
function admit(throttle: SignInThrottle, reply: FastifyReply, key: string, address: string, field: string): void {
  const wait = throttle.take(key, address);
  if (wait > 0) {
    reply.header('Retry-After', wait);
    throw new ServiceError(429, 'RATE_LIMITED', `too many attempts; try again in ${wait} seconds`, { field, reason: 'too_many_failures' });
  }
}

/**
 * The caller's email address (docs "Accounts and sign-in", "Your email address"), first-party
 * routes under `/api/v1`: `GET /me/email` → `{ok, item: {email, pendingEmail}}`, and `POST
 * /me/email {email, currentPassword}`, which mails a confirmation link to the new address (the
 * address changes only when the link is used). The password check is throttled like sign-in.
 */
export const emailChangeRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const services = app.services;
  const { store, clock } = services;
  const throttle = new SignInThrottle(clock);

  app.get(
    '/me/email',
    {
      config: { firstParty: true },
      schema: { tags: ['auth'], summary: 'My email address and the one waiting for confirmation', response: emailStatusResponses },
    },
    async (request) => ({ ok: true, item: await store.run(emailStatus(store.sql, request.actor.userId, clock.now())) }),
  );

  app.post(
    '/me/email',
    {
      config: { firstParty: true },
      schema: {
        tags: ['auth'],
        summary: 'Change my email address: mails a confirmation link to the new one',
        body: EmailChangeBody,
        response: emailStatusResponses,
      },
    },
    async (request, reply) => {
      const { actor } = request;
      const account = `email:${accountKey(actor.userId, actor.handle)}`;
      admit(throttle, reply, account, request.ip, 'currentPassword');
      const creds = (await store.run(credentialsOf(store.sql, actor.userId)))!;
      if (!(await verifyPassword(request.body.currentPassword, creds.passwordHash))) {
        throw badRequest('currentPassword', 'incorrect', 'the current password is wrong');
      }
      throttle.succeed(account, request.ip);
      const item = await store.run(requestEmailChange(services, actor.userId, request.body.email));
      services.signals?.notify('mail');
      return { ok: true, item };
    },
  );
};

/**
 * The confirmation link's action, no credential needed (the token is the proof): `POST
 * /api/v1/auth/email/verify {token}` makes the mailed address the account's, once; throttled per
 * caller address. The page `/verify-email?token=…` (web app) asks for a button press first, so
 * opening the link (as mail scanners do) changes nothing.
 */
export const emailVerifyRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const services = app.services;
  const throttle = new SignInThrottle(services.clock);
  const noStore = publicPageGuard();

  app.post(
    '/api/v1/auth/email/verify',
    {
      config: { auth: 'none' },
      onRequest: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Confirm an email address with its mailed link (once)',
        security: [],
        body: EmailVerifyBody,
        response: emailStatusResponses,
      },
    },
    async (request, reply) => {
      refuseCrossSiteSignIn(services, request);
      const key = `verify-email:${request.ip}`;
      admit(throttle, reply, key, request.ip, 'token');
      const item = await services.store.run(confirmEmailChange(services, request.body.token));
      throttle.succeed(key, request.ip);
      app.meter.forgetCachedTokens();
      services.signals?.notify('mail');
      return { ok: true, item };
    },
  );
};
