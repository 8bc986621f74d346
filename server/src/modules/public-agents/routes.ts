import type { FastifyPluginAsync } from 'fastify';
import { escapeHtml, publicPageGuard, sendHtml, wantsJson } from '../../http/public-pages';
import {
  ACCEPTED_PUBLIC_MODES,
  ACCEPTED_THEMES,
  disablePublicAccess,
  enablePublicAccess,
  getPublicAgent,
  PUBLIC_META_LIMITS,
  publicAgentView,
  publicUrlOf,
  updatePublicAgent,
  type PublicAgentPreferences,
  type PublicAgentView,
} from './service';
import { itemEnvelope, okOnly, params, responses } from '../../http/schemas';

const str = { type: 'string' } as const;
const preferencesSchema = {
  type: 'object',
  properties: {
    mode: { type: 'string', enum: ACCEPTED_PUBLIC_MODES, description: 'template or chatbot (chat is accepted as chatbot)' },
    canCopyKnowledge: { type: 'boolean' },
    hideBranding: { type: 'boolean' },
    theme: { type: 'string', enum: ACCEPTED_THEMES, description: 'light, dark or auto (system is accepted as auto)' },
    autoEndChats: { type: 'boolean', description: 'Stored and returned; no public chat acts on it in this version' },
    meta: {
      type: 'object',
      additionalProperties: false,
      description:
        "The public page's HTML title and description (empty or absent: the agent's name and description); PATCH merges its keys",
      properties: {
        title: { type: 'string', maxLength: PUBLIC_META_LIMITS.title },
        description: { type: 'string', maxLength: PUBLIC_META_LIMITS.description },
      },
    },
  },
} as const;

const avatarSchema = {
  type: 'object',
  required: ['type', 'data'],
  properties: { type: str, data: { type: 'object', required: ['value'], properties: { value: str } } },
} as const;

/** The real service's `data` of a public agent: the agent's avatar. */
const publicAgentData = { type: 'object', required: ['avatar'], properties: { avatar: avatarSchema } } as const;

/** The public agent item: the real service's `{id, name, data, preferences}` plus our `space_agent_id`. */
export const publicAgentSchema = {
  type: 'object',
  required: ['id', 'name', 'data', 'space_agent_id', 'preferences'],
  properties: {
    id: { type: 'string', description: 'The public id (the end of publicUrl)' },
    name: { type: 'string', description: "The agent's name" },
    data: publicAgentData,
    space_agent_id: { type: 'string', description: "The agent's id" },
    preferences: preferencesSchema,
  },
} as const;

/**
 * What anyone holding a public id sees (the JSON of the public page): no agent id, folder,
 * workspace or knowledge ids; prompts only in `template` mode, knowledge names only with
 * `canCopyKnowledge`.
 */
export const publicAgentViewSchema = {
  type: 'object',
  required: ['id', 'name', 'data', 'description', 'tone', 'language', 'avatar', 'commands', 'preferences'],
  properties: {
    id: { type: 'string', description: 'The public id (not the agent id)' },
    name: str,
    data: publicAgentData,
    description: str,
    tone: str,
    language: str,
    avatar: { ...avatarSchema, description: 'Same as data.avatar (kept for older clients)' },
    commands: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'mode'],
        properties: { name: str, mode: str, prompt: { type: 'string', description: 'template mode only' } },
      },
    },
    knowledge: {
      type: 'object',
      description: 'Only when preferences.canCopyKnowledge',
      properties: {
        projects: { type: 'array', items: { type: 'object', properties: { id: str, name: str } } },
        medias: { type: 'array', items: { type: 'object', properties: { id: str, name: str, kind: str } } },
      },
    },
    preferences: preferencesSchema,
  },
} as const;

const publicUrlEnvelope = {
  type: 'object',
  required: ['ok', 'publicUrl'],
  properties: { ok: { type: 'boolean' }, publicUrl: { type: 'string', format: 'uri' } },
} as const;

const tags = ['agents'];

/**
 * Public access of agents under /api/v1 (spec 4.4 `publicAccess`, `public-agent`), plus our
 * `DELETE /agents/{agentId}/publicAccess` to turn it off.
 */
export const publicAgentRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;

  app.put<{ Params: { agentId: string } }>(
    '/agents/:agentId/publicAccess',
    { schema: { tags, summary: 'Enable public access (idempotent)', params: params('agentId'), response: responses(publicUrlEnvelope) } },
    async (request) => ({ ok: true, ...(await svc.store.run(enablePublicAccess(svc, request.actor, request.params.agentId))) }),
  );

  app.delete<{ Params: { agentId: string } }>(
    '/agents/:agentId/publicAccess',
    { schema: { tags, summary: 'Disable public access (idempotent)', params: params('agentId'), response: responses(okOnly) } },
    async (request) => {
      await svc.store.run(disablePublicAccess(svc, request.actor, request.params.agentId));
      return { ok: true };
    },
  );

  app.get<{ Params: { agentId: string } }>(
    '/agents/:agentId/public-agent',
    {
      schema: {
        tags,
        summary: 'The public agent and its URL (404 when public access is off)',
        params: params('agentId'),
        response: responses({
          type: 'object',
          required: ['ok', 'item', 'publicUrl'],
          properties: { ok: { type: 'boolean' }, item: publicAgentSchema, publicUrl: { type: 'string', format: 'uri' } },
        }),
      },
    },
    async (request) => ({ ok: true, ...(await svc.store.run(getPublicAgent(svc, request.actor, request.params.agentId))) }),
  );

  app.get<{ Params: { publicAgentId: string } }>(
    '/public-agents/:publicAgentId',
    {
      schema: {
        tags,
        summary: 'A public agent by its public id, as its public page shows it (any authenticated caller)',
        params: params('publicAgentId'),
        response: responses({
          type: 'object',
          required: ['ok', 'item', 'publicUrl'],
          properties: { ok: { type: 'boolean' }, item: publicAgentViewSchema, publicUrl: { type: 'string', format: 'uri' } },
        }),
      },
    },
    async (request) => {
      const item = await svc.store.run(publicAgentView(svc, request.params.publicAgentId));
      return { ok: true, item, publicUrl: publicUrlOf(svc, item.id) };
    },
  );

  app.patch<{ Params: { agentId: string }; Body: { preferences: Partial<PublicAgentPreferences> } }>(
    '/agents/:agentId/public-agent',
    {
      schema: {
        tags,
        summary: 'Merge public agent preferences',
        params: params('agentId'),
        body: {
          type: 'object',
          required: ['preferences'],
          additionalProperties: false,
          properties: { preferences: { ...preferencesSchema, additionalProperties: false } },
          description: 'Every key of preferences is optional; absent keys keep their value',
        },
        response: responses(itemEnvelope(publicAgentSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(updatePublicAgent(svc, request.actor, request.params.agentId, request.body.preferences)),
    }),
  );
};

const THEME_CSS: Record<PublicAgentPreferences['theme'], string> = {
  light: ':root{color-scheme:light;--bg:#fff;--fg:#1d1d1f;--muted:#6e6e73}',
  dark: ':root{color-scheme:dark;--bg:#1d1d1f;--fg:#f5f5f7;--muted:#a1a1a6}',
  auto: ':root{color-scheme:light dark;--bg:#fff;--fg:#1d1d1f;--muted:#6e6e73}@media (prefers-color-scheme:dark){:root{--bg:#1d1d1f;--fg:#f5f5f7;--muted:#a1a1a6}}',
};

/** The HTML public page of an agent; every value is escaped. */
export function renderPublicPage(view: PublicAgentView): string {
  const e = escapeHtml;
  const avatar =
    view.avatar.type === 'image'
      ? `<img class="avatar" src="${e(view.avatar.data.value)}" alt="" width="64" height="64">`
      : `<span class="avatar">${e(view.avatar.data.value)}</span>`;
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
<html lang="${e(view.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(view.preferences.meta?.title || view.name)}</title>
<meta name="description" content="${e(view.preferences.meta?.description || view.description)}">
<style>${THEME_CSS[view.preferences.theme]}body{font-family:system-ui,sans-serif;background:var(--bg);color:var(--fg);max-width:42rem;margin:2rem auto;padding:0 1rem}.avatar{font-size:3rem}pre{white-space:pre-wrap;color:var(--muted)}footer{color:var(--muted);margin-top:3rem;font-size:.85rem}</style>
</head><body>
<header>${avatar}<h1>${e(view.name)}</h1><p>${e(view.description)}</p></header>
<h2>Commands</h2><ul>${commands}</ul>
${knowledge}
${view.preferences.hideBranding ? '' : '<footer>Made with Taskspace</footer>'}
</body></html>
`;
}

/**
 * The unauthenticated public agent page `GET /public/agents/{publicId}` (the public group of route-table.ts,
 * outside /api/v1): HTML for browsers, the JSON view `{ok, item}` when the Accept header asks for
 * `application/json` (and not `text/html`). Counted per caller address against the standard hourly rate limit, with
 * the X-RateLimit-* headers.
 */
export const publicAgentPageRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const guard = publicPageGuard();

  app.get<{ Params: { publicId: string } }>(
    '/public/agents/:publicId',
    { schema: { hide: true, params: params('publicId') } },
    async (request, reply) => {
      void guard(request, reply);
      const view = await svc.store.run(publicAgentView(svc, request.params.publicId));
      if (wantsJson(request.headers.accept)) return { ok: true, item: view, publicUrl: publicUrlOf(svc, view.id) };
      return sendHtml(reply, renderPublicPage(view));
    },
  );
};
