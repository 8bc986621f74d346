import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { escapeHtml } from '../../http/html';
import { formPage, publicPageGuard } from '../../http/public-pages';
import { preferencesOf, readUnsubscribeToken, unsubscribe, updatePreferences } from './preferences';
import { MailPreferencesBody, UnsubscribeQuery, mailPreferencesResponses } from './schemas';

/**
 * My notification mails (docs/email.md "Notifications"): `GET`/`PUT /api/v1/me/mail-preferences`
 * (first-party credentials: a session or a personal access token).
 */
export const mailPreferenceRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = app.services;

  app.get(
    '/me/mail-preferences',
    {
      config: { firstParty: true },
      schema: { tags: ['mail'], summary: 'Which notification mails I get: immediate, digest or off', response: mailPreferencesResponses },
    },
    async (request) => ({ ok: true, item: await store.run(preferencesOf(store.sql, request.actor.userId)) }),
  );

  app.put(
    '/me/mail-preferences',
    {
      config: { firstParty: true },
      schema: {
        tags: ['mail'],
        summary: 'Choose which notification mails I get',
        body: MailPreferencesBody,
        response: mailPreferencesResponses,
      },
    },
    async (request) => {
      const item = await store.run(updatePreferences(store.sql, request.actor.userId, request.body));
      return { ok: true, item };
    },
  );
};

const KIND_NAMES = { assignment: 'assignments', mention: 'mentions', approval: 'approval requests', failure: 'failure alerts' } as const;

/**
 * The unsubscribe link of notification mails (`List-Unsubscribe`, RFC 8058 one-click), no
 * credential: `POST /api/v1/mail/unsubscribe?token=…` turns that kind of notification off for the
 * person the token names; `GET` only shows a page with a button that posts it (a bare GET, as link
 * scanners send, changes nothing).
 */
export const mailUnsubscribeRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { store, secretBox } = app.services;
  const guard = publicPageGuard();
  // One-click posts are application/x-www-form-urlencoded (`List-Unsubscribe=One-Click`); the body is not needed.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

  app.get(
    '/api/v1/mail/unsubscribe',
    { config: { auth: 'none' }, onRequest: guard, schema: { hide: true, querystring: UnsubscribeQuery } },
    async (request, reply) => {
      const token = request.query.token ?? '';
      const target = readUnsubscribeToken(secretBox, token);
      if (!target) return formPage(reply, 400, 'Unsubscribe', '<p>This unsubscribe link is not valid.</p>');
      return formPage(
        reply,
        200,
        'Unsubscribe',
        `<p>Stop the mails about ${escapeHtml(KIND_NAMES[target.kind])}? You can turn them on again in My account.</p>` +
          `<form method="post" action="/api/v1/mail/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  app.post(
    '/api/v1/mail/unsubscribe',
    { config: { auth: 'none' }, onRequest: guard, schema: { hide: true, querystring: UnsubscribeQuery } },
    async (request, reply) => {
      const kind = await store.run(unsubscribe(store.sql, secretBox, request.query.token ?? ''));
      if (!kind) return formPage(reply, 400, 'Unsubscribe', '<p>This unsubscribe link is not valid.</p>');
      return formPage(reply, 200, 'Unsubscribed', `<p>You no longer get mails about ${escapeHtml(KIND_NAMES[kind])}.</p>`);
    },
  );
};
