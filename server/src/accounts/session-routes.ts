import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { bearerAuth } from '../auth/hook';
import { isoTime } from '../platform/clock';
import { ServiceError, badRequest, notFound } from '../errors';
import { credentialsOf, findCredentials, replacePassword } from './credentials';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords';
import { SESSION_COOKIE, createSession, listSessions, revokeSession } from '../auth/sessions';
import { SignInThrottle, accountKey } from './sign-in-throttle';
import { refuseCrossSiteSignIn } from '../auth/session-auth';
import { publicPageGuard } from '../http/public-pages';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  PasswordChangeBody,
  SessionParams,
  SignInBody,
  okResponses,
  sessionProbeResponses,
  sessionsResponses,
  signInResponses,
} from './schemas';

const GENERIC_FAILURE = 'wrong login or password';

/**
 * Browser sign-in (docs "Accounts and sign-in"): `POST /api/v1/auth/sign-in`, `sign-out`, the
 * session probe `GET /api/v1/auth/session`,
 * `GET`/`DELETE /api/v1/auth/sessions[/:id]` and `POST /api/v1/auth/password`. Registered outside
 * the v1 plugin so sign-in needs no credential; the other routes authenticate with the same hook
 * as the API (bearer token, else the session cookie, CSRF-checked). Sessions and the password are
 * a person's own credentials: OAuth access tokens are refused there (403 `oauth_token_not_allowed`).
 */
export const authSessionRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const services = app.services;
  const { store, clock, config } = services;
  const q = store.sql;
  const auth = bearerAuth();
  const noStore = publicPageGuard();
  const throttle = new SignInThrottle(clock);
  const secure = (config.publicUrl ?? '').startsWith('https:');
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };

  /**
   * Admits one password check for `account` from `address` (docs "Sign-in throttling"), counted
   * as failed until `throttle.succeed`; inside the current back-off wait, 429 RATE_LIMITED with
   * `Retry-After` (s) and the password is not checked. `field` names the password field in `details`.
   */
  function admitPasswordCheck(reply: FastifyReply, account: string, address: string, field: string): void {
    const wait = throttle.take(account, address);
    if (wait > 0) {
      reply.header('Retry-After', wait);
      throw new ServiceError(429, 'RATE_LIMITED', `too many failed sign-in attempts; try again in ${wait} seconds`, {
        field,
        reason: 'too_many_failures',
      });
    }
  }

  app.post(
    '/api/v1/auth/sign-in',
    {
      // No credential: the request meter counts it against the caller's address.
      config: { auth: 'none' },
      onRequest: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with handle or email and password; sets the session cookie',
        security: [],
        body: SignInBody,
        response: signInResponses,
      },
    },
    async (request, reply) => {
      const { login, password } = request.body;
      refuseCrossSiteSignIn(services, request);
      const creds = await store.run(findCredentials(q, login));
      // One bucket per account whichever of its names is typed; unknown logins by their text.
      const account = accountKey(creds?.userId, login);
      admitPasswordCheck(reply, account, request.ip, 'password');
      const ok = await verifyPassword(password, creds?.passwordHash);
      if (!ok || !creds) throw new ServiceError(401, 'INVALID_CREDENTIALS', GENERIC_FAILURE);
      throttle.succeed(account, request.ip);
      const now = clock.now();
      const created = await store.run(createSession(q, creds.userId, now, config.accounts, request.headers['user-agent']));
      reply.setCookie(SESSION_COOKIE, created.secret, { ...cookieOptions, maxAge: Math.floor(config.accounts.sessionMaxMs / 1000) });
      const user = { id: creds.userId, handle: creds.handle, displayName: creds.displayName };
      return { ok: true, item: { sessionId: created.id, expiresAt: isoTime(created.expiresAt), user } };
    },
  );

  app.get(
    '/api/v1/auth/session',
    {
      // A credential is read as usual, but its absence (or an ended session) is an answer, not a 401.
      config: { auth: 'optional' },
      onRequest: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Whether the caller is signed in; 200 either way',
        description:
          'The session probe of the web app: `{ok: true, signedIn: false}` without a credential or when the session cookie ' +
          'names an ended session (the cookie is then cleared), else `{ok: true, signedIn: true, item}` with the caller as `GET /api/v1/me` returns it. ' +
          'A bearer token that is invalid or expired is still 401, like everywhere else.',
        response: sessionProbeResponses,
      },
    },
    async (request, reply) => {
      const actor = request.actor as typeof request.actor | undefined;
      if (!actor) {
        if (request.cookies?.[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, cookieOptions);
        return { ok: true, signedIn: false };
      }
      const { userId, handle, displayName, plan, rateTier, verified } = actor;
      return { ok: true, signedIn: true, item: { id: userId, handle, displayName, plan, rateTier, verified } };
    },
  );

  app.post(
    '/api/v1/auth/sign-out',
    { onRequest: auth, schema: { tags: ['auth'], summary: 'End the current session and clear its cookie', response: okResponses } },
    async (request, reply) => {
      if (request.actor.sessionId) {
        await store.run(revokeSession(q, request.actor.userId, request.actor.sessionId, clock.now()));
        // Its live streams here end now, before the answer; other processes' end at their next look.
        services.live.endSession(request.actor.sessionId);
      }
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return { ok: true };
    },
  );

  app.get(
    '/api/v1/auth/sessions',
    {
      onRequest: auth,
      config: { firstParty: true },
      schema: { tags: ['auth'], summary: 'My live sessions; `current` marks this one', response: sessionsResponses },
    },
    async (request) => {
      const now = clock.now();
      const items = (await store.run(listSessions(q, request.actor.userId, now, config.accounts))).map((s) => ({
        id: s.id,
        userAgent: s.userAgent,
        createdAt: isoTime(s.createdAt),
        lastUsedAt: isoTime(s.lastUsedAt),
        expiresAt: isoTime(Math.min(s.expiresAt, s.lastUsedAt + config.accounts.sessionIdleMs)),
        current: s.id === request.actor.sessionId,
      }));
      return { ok: true, items };
    },
  );

  app.delete(
    '/api/v1/auth/sessions/:sessionId',
    {
      onRequest: auth,
      config: { firstParty: true },
      schema: { tags: ['auth'], summary: 'End one of my sessions', params: SessionParams, response: okResponses },
    },
    async (request, reply) => {
      if (!(await store.run(revokeSession(q, request.actor.userId, request.params.sessionId, clock.now())))) {
        throw notFound('session', request.params.sessionId);
      }
      services.live.endSession(request.params.sessionId);
      if (request.params.sessionId === request.actor.sessionId) reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return { ok: true };
    },
  );

  app.post(
    '/api/v1/auth/password',
    {
      onRequest: auth,
      config: { firstParty: true },
      schema: {
        tags: ['auth'],
        summary: 'Change my password; ends my other sessions',
        body: PasswordChangeBody,
        response: okResponses,
      },
    },
    async (request, reply) => {
      const { actor } = request;
      const account = accountKey(actor.userId, actor.handle);
      admitPasswordCheck(reply, account, request.ip, 'currentPassword');
      const creds = (await store.run(credentialsOf(q, actor.userId)))!;
      if (!(await verifyPassword(request.body.currentPassword, creds.passwordHash))) {
        throw badRequest('currentPassword', 'incorrect', 'the current password is wrong');
      }
      throttle.succeed(account, request.ip);
      const hash = await hashPassword(checkPasswordPolicy(request.body.newPassword, 'newPassword'));
      await store.run(replacePassword(services, actor, hash));
      return { ok: true };
    },
  );
};
