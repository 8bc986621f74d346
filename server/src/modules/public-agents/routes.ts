import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { escapeHtml, publicPageGuard, sendHtml, wantsJson } from '../../http/public-pages';
import { pagesStylesheetLink } from '../../http/page-style';
import {
  disablePublicAccess,
  enablePublicAccess,
  getPublicAgent,
  publicAgentView,
  publicUrlOf,
  updatePublicAgent,
  type PublicAgentView,
} from './service';
import {
  PatchPublicAgentBody,
  agentParams,
  okResponses,
  patchedResponses,
  publicAgentParams,
  publicAgentResponses,
  publicPageParams,
  publicUrlResponses,
  publicViewResponses,
} from './schemas';

const tags = ['agents'];

/**
 * Public access of agents under /api/v1 (spec 4.4 `publicAccess`, `public-agent`), plus our
 * `DELETE /agents/{agentId}/publicAccess` to turn it off.
 */
export const publicAgentRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.put(
    '/agents/:agentId/publicAccess',
    { schema: { tags, summary: 'Enable public access (idempotent)', params: agentParams, response: publicUrlResponses } },
    async (request) => ({ ok: true, ...(await svc.store.run(enablePublicAccess(svc, request.actor, request.params.agentId))) }),
  );

  app.delete(
    '/agents/:agentId/publicAccess',
    { schema: { tags, summary: 'Disable public access (idempotent)', params: agentParams, response: okResponses } },
    async (request) => {
      await svc.store.run(disablePublicAccess(svc, request.actor, request.params.agentId));
      return { ok: true };
    },
  );

  app.get(
    '/agents/:agentId/public-agent',
    {
      schema: {
        tags,
        summary: 'The public agent and its URL (404 when public access is off)',
        params: agentParams,
        response: publicAgentResponses,
      },
    },
    async (request) => ({ ok: true, ...(await svc.store.run(getPublicAgent(svc, request.actor, request.params.agentId))) }),
  );

  app.get(
    '/public-agents/:publicAgentId',
    {
      schema: {
        tags,
        summary: 'A public agent by its public id, as its public page shows it (any authenticated caller)',
        params: publicAgentParams,
        response: publicViewResponses,
      },
    },
    async (request) => {
      const item = await svc.store.run(publicAgentView(svc, request.params.publicAgentId));
      return { ok: true, item, publicUrl: publicUrlOf(svc, item.id) };
    },
  );

  app.patch(
    '/agents/:agentId/public-agent',
    {
      schema: {
        tags,
        summary: 'Merge public agent preferences',
        params: agentParams,
        body: PatchPublicAgentBody,
        response: patchedResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(updatePublicAgent(svc, request.actor, request.params.agentId, request.body.preferences)),
    }),
  );
};

/**
 * The HTML public page of an agent in the app's look from `stylesheetLink` (page-style.ts), its
 * theme preference as `data-theme` (auto follows the system); every value is escaped.
 */
export function renderPublicPage(view: PublicAgentView, stylesheetLink = ''): string {
  const e = escapeHtml;
  const avatar =
    view.avatar.type === 'image'
      ? `<img class="avatar avatar-lg" src="${e(view.avatar.data.value)}" alt="" width="48" height="48">`
      : `<span class="avatar avatar-lg" aria-hidden="true">${e(view.avatar.data.value)}</span>`;
  const commands = view.commands
    .map((c) => `<li><strong>${e(c.name)}</strong>${c.prompt === undefined ? '' : `<pre>${e(c.prompt)}</pre>`}</li>`)
    .join('');
  const knowledge = view.knowledge
    ? `<h2>Knowledge</h2><ul>${[
        ...view.knowledge.projects.map((p) => `<li>Project: ${e(p.name)}</li>`),
        ...view.knowledge.medias.map((m) => `<li>File: ${e(m.name)} (${e(m.kind)})</li>`),
      ].join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="${e(view.language)}"${view.preferences.theme === 'auto' ? '' : ` data-theme="${view.preferences.theme}"`}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(view.preferences.meta?.title || view.name)}</title>
<meta name="description" content="${e(view.preferences.meta?.description || view.description)}">
<meta name="color-scheme" content="${view.preferences.theme === 'auto' ? 'light dark' : view.preferences.theme}">${stylesheetLink}
</head><body class="page page-wide"><main class="page-main">
<header class="row">${avatar}<h1>${e(view.name)}</h1></header><p>${e(view.description)}</p>
<h2>Commands</h2><ul>${commands}</ul>
${knowledge}
${view.preferences.hideBranding ? '' : '<p class="page-foot">Made with Taskspace</p>'}
</main></body></html>
`;
}

/**
 * The unauthenticated public agent page `GET /public/agents/{publicId}` (the public group of route-table.ts,
 * outside /api/v1): HTML for browsers, the JSON view `{ok, item}` when the Accept header asks for
 * `application/json` (and not `text/html`). Counted per caller address against the standard hourly rate limit, with
 * the X-RateLimit-* headers.
 */
export const publicAgentPageRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const guard = publicPageGuard();

  app.get('/public/agents/:publicId', { schema: { hide: true, params: publicPageParams } }, async (request, reply) => {
    void guard(request, reply);
    const view = await svc.store.run(publicAgentView(svc, request.params.publicId));
    if (wantsJson(request.headers.accept)) return { ok: true, item: view, publicUrl: publicUrlOf(svc, view.id) };
    return sendHtml(reply, renderPublicPage(view, pagesStylesheetLink(reply)));
  });
};
