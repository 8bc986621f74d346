import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { escapeHtml } from '../../http/html';
import { formPage, formPageCsp } from '../../http/public-pages';
import { isoTime } from '../../platform/clock';
import { deleteOAuthApp, listOAuthApps, putOAuthApp, type OAuthAppInfo } from './oauth-apps';
import { CALLBACK_PATH, consentStatus, finishConsent, startConsent, startReconsent } from './oauth-flow';
import {
  AppParams,
  CallbackQuery,
  PutOAuthAppBody,
  ReconsentBody,
  ReconsentParams,
  StartConsentBody,
  StateParams,
  appResponses,
  appsResponses,
  consentResponses,
  consentStatusResponses,
  deleteAppResponses,
} from './oauth-schemas';
import { WorkspaceParams } from './schemas';

const FIRST_PARTY = { firstParty: true } as const;

/** The callback page's one script: it closes the consent popup (a browser lets a page close a window a script opened). */
const CLOSE_SCRIPT = 'window.close();';
const CLOSE_SCRIPT_HASH = createHash('sha256').update(CLOSE_SCRIPT).digest('base64');
const tags = ['connections'];

function present(a: OAuthAppInfo) {
  return {
    ...a,
    createdAt: a.createdAt === null ? null : isoTime(a.createdAt),
    updatedAt: a.updatedAt === null ? null : isoTime(a.updatedAt),
  };
}

/**
 * OAuth2 connections over the API (docs/integrations.md "OAuth2 apps", "OAuth2 connections"): the
 * workspace's provider apps (Owners register them; any member lists them, never a secret), the
 * start of a consent, its status, and the provider's redirect back (`GET /api/v1/connections/oauth2/callback`,
 * in the person's signed-in browser; it answers a small page).
 */
export const connectionOAuthRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const pieces = () => app.automations.pieces;
  const { store } = app.services;
  app.get(
    '/workspaces/:workspaceId/oauth2-apps',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: 'The OAuth apps the workspace makes connections with (never a secret)',
        params: WorkspaceParams,
        response: appsResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: (await store.run(listOAuthApps(app.services, request.actor, request.params.workspaceId))).map(present),
    }),
  );
  app.put(
    '/workspaces/:workspaceId/oauth2-apps/:piece',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: 'Owners: register the provider app (client id and secret) of an OAuth2 piece; the secret is never shown again',
        params: AppParams,
        body: PutOAuthAppBody,
        response: appResponses,
      },
    },
    async (request) => {
      const { workspaceId, piece } = request.params;
      const item = await store.run(
        putOAuthApp(app.services, request.actor, workspaceId, pieces().catalogue.find(piece), piece, request.body),
      );
      return { ok: true, item: present(item) };
    },
  );
  app.delete(
    '/workspaces/:workspaceId/oauth2-apps/:piece',
    {
      config: FIRST_PARTY,
      schema: { tags, summary: "Owners: remove the workspace's OAuth app of a piece", params: AppParams, response: deleteAppResponses },
    },
    async (request) => {
      await store.run(deleteOAuthApp(app.services, request.actor, request.params.workspaceId, request.params.piece));
      return { ok: true };
    },
  );
  app.post(
    '/workspaces/:workspaceId/connections/oauth2',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: "Collaborators: start an OAuth2 connection; open the answer's authorizationUrl in the person's browser",
        params: WorkspaceParams,
        body: StartConsentBody,
        response: consentResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await store.run(
        startConsent(app.services, request.actor, request.params.workspaceId, pieces().catalogue.find(request.body.piece), request.body),
      ),
    }),
  );
  app.post(
    '/workspaces/:workspaceId/connections/:id/oauth2',
    {
      config: FIRST_PARTY,
      schema: {
        tags,
        summary: 'Collaborators: reconnect an OAuth2 connection in place (a new consent; its id, name and steps stay)',
        params: ReconsentParams,
        body: ReconsentBody,
        response: consentResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await store.run(
        startReconsent(
          app.services,
          request.actor,
          request.params.workspaceId,
          request.params.id,
          (p) => pieces().catalogue.find(p),
          request.body,
        ),
      ),
    }),
  );
  app.get(
    '/workspaces/:workspaceId/connections/oauth2/:state',
    {
      config: FIRST_PARTY,
      schema: { tags, summary: 'How an OAuth2 consent I started stands', params: StateParams, response: consentStatusResponses },
    },
    async (request) => ({
      ok: true,
      item: await store.run(consentStatus(app.services, request.actor, request.params.workspaceId, request.params.state)),
    }),
  );
  app.get(
    CALLBACK_PATH.replace('/api/v1', ''),
    { config: FIRST_PARTY, schema: { tags, hide: true, querystring: CallbackQuery } },
    async (request, reply) => {
      const ended = await finishConsent(app.services, pieces().http, request.actor, request.query);
      const back = `<p><a href="/settings/connections">Back to Connections</a></p>`;
      if (ended.status === 'connected') {
        const page = formPage(
          reply,
          200,
          'Connected',
          `<p>The connection <strong>${escapeHtml(ended.name ?? '')}</strong> is made. You can close this window.</p>${back}<script>${CLOSE_SCRIPT}</script>`,
        );
        reply.header('Content-Security-Policy', `${formPageCsp()}; script-src 'sha256-${CLOSE_SCRIPT_HASH}'`);
        return page;
      }
      return formPage(reply, 400, 'Not connected', `<p>${escapeHtml(ended.error ?? 'the connection was not made')}</p>${back}`);
    },
  );
};
