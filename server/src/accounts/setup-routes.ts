import type { FastifyPluginAsync } from 'fastify';
import { completeSetup, checkSetupLink } from './setup-links';
import { signUpWithInvitation } from './sign-up';
import { previewInvitation } from './invitations';
import { isoTime } from '../platform/clock';
import { credentialsOf } from './credentials';
import { PASSWORD_MIN_LENGTH } from './passwords';
import { ServiceError } from '../errors';
import { escapeHtml, formPage as page, publicPageGuard } from '../http/public-pages';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  InvitationTokenBody,
  SetupBody,
  SetupPageQuery,
  SignUpBody,
  invitationPreviewResponses,
  okResponses,
  signUpResponses,
} from './schemas';
import type { Query, Sql } from '../platform/db/query';

/**
 * The handle of the account behind a usable setup link, for the form.
 * @throws ServiceError 400 as {@link checkSetupLink}.
 */
function* linkHandle(q: Sql, token: unknown, now: number): Query<string> {
  const userId = yield* checkSetupLink(q, token, now);
  return (yield* credentialsOf(q, userId))!.handle;
}

function form(token: string, handle: string, error?: string): string {
  return (
    `<p>Choose the password of <strong>@${escapeHtml(handle)}</strong> (at least ${PASSWORD_MIN_LENGTH} characters).</p>` +
    (error ? `<p role="alert"><strong>${escapeHtml(error)}</strong></p>` : '') +
    `<form method="post" action="/setup"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
    `<input type="text" name="username" autocomplete="username" value="${escapeHtml(handle)}" hidden>` +
    `<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required>` +
    `<button type="submit">Set password</button></form>`
  );
}

/**
 * Account routes outside the bearer-authenticated API plugins (docs "Accounts and sign-in"):
 * the first-start setup link page (`GET`/`POST /setup`, minimal server-rendered HTML, to be
 * replaced by the web app), `POST /api/v1/auth/setup {token, password}` and
 * `POST /api/v1/auth/invitations/preview {token}` (what an invitation offers, for the web app's
 * `/invite` page) and `POST /api/v1/auth/invitations/accept {token, handle, password, displayName?}`
 * (a new account joins through an invitation). Every route is
 * limited per caller address like the public pages.
 */
export const accountRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const { store, clock } = svc;
  const guard = publicPageGuard();

  // The setup form posts application/x-www-form-urlencoded; this parser exists only inside this plugin.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get('/setup', { schema: { hide: true, querystring: SetupPageQuery }, onRequest: guard }, async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    try {
      const handle = await store.run(linkHandle(store.sql, token, clock.now()));
      return page(reply, 200, 'Set your password', form(token, handle));
    } catch (error) {
      if (error instanceof ServiceError) return page(reply, error.statusCode, 'Setup link', `<p>${escapeHtml(error.message)}</p>`);
      throw error;
    }
  });

  // No body schema: whatever the form sends is answered with the page (and why), never a JSON 400.
  app.post('/setup', { schema: { hide: true }, onRequest: guard }, async (request, reply) => {
    const body = (request.body ?? {}) as { token?: unknown; password?: unknown };
    try {
      await completeSetup(svc, body.token, body.password);
      return page(
        reply,
        200,
        'Password set',
        '<p>Your password is set. You can now sign in.</p><p><a class="btn btn-primary btn-block" href="/sign-in">Sign in</a></p>',
      );
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.details?.field === 'password' && typeof body.token === 'string') {
        const handle = await store.run(linkHandle(store.sql, body.token, clock.now()));
        return page(reply, 400, 'Set your password', form(body.token, handle, error.message));
      }
      return page(reply, error.statusCode, 'Setup link', `<p>${escapeHtml(error.message)}</p>`);
    }
  });

  app.post(
    '/api/v1/auth/setup',
    {
      config: { auth: 'none' },
      onRequest: guard,
      schema: {
        tags: ['auth'],
        summary: 'Set a password with a one-time setup link token',
        security: [],
        body: SetupBody,
        response: okResponses,
      },
    },
    async (request) => {
      const { token, password } = request.body;
      await completeSetup(svc, token, password);
      return { ok: true };
    },
  );

  app.post(
    '/api/v1/auth/invitations/preview',
    {
      config: { auth: 'none' },
      onRequest: guard,
      schema: {
        tags: ['auth'],
        summary: 'What an invitation token offers (workspace, role, invitee), for the invitation page',
        security: [],
        body: InvitationTokenBody,
        response: invitationPreviewResponses,
      },
    },
    async (request) => {
      const preview = await store.run(previewInvitation(svc, request.body.token));
      return { ok: true, item: { ...preview, expiresAt: isoTime(preview.expiresAt) } };
    },
  );

  app.post(
    '/api/v1/auth/invitations/accept',
    {
      config: { auth: 'none' },
      onRequest: guard,
      schema: {
        tags: ['auth'],
        summary: 'Create an account and join the workspace with an invitation token',
        security: [],
        body: SignUpBody,
        response: signUpResponses,
      },
    },
    async (request) => {
      const item = await signUpWithInvitation(svc, request.body);
      return { ok: true, item };
    },
  );
};
