import type { FastifyPluginAsync } from 'fastify';
import { SHARE_MODES, sharedProjectView, type ShareMode, type SharedProjectView } from './service';
import { escapeHtml, publicPageGuard, sendHtml, wantsJson } from '../../http/public-pages';

/** The HTML page of a shared project: name and tasks as an indented checklist; every value escaped. */
export function renderSharedProject(view: SharedProjectView): string {
  const e = escapeHtml;
  const tasks = view.tasks
    .map(
      (t) =>
        `<li style="margin-left:${t.depth * 1.5}rem"${t.completed ? ' class="done"' : ''}>${t.completed ? '☑' : '☐'} ${e(t.text)}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(view.project.name)}</title>
<style>:root{color-scheme:light dark}body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}ul{list-style:none;padding:0}li{padding:.15rem 0}.done{opacity:.6;text-decoration:line-through}footer{opacity:.6;margin-top:3rem;font-size:.85rem}</style>
</head><body>
<h1>${e(view.project.name)}${view.project.completed ? ' (completed)' : ''}</h1>
<ul>
${tasks}
</ul>
${view.truncated ? `<p>Only the first ${view.tasks.length} tasks are shown.</p>` : ''}
<footer>Shared read-only with Taskspace</footer>
</body></html>
`;
}

/**
 * The share URLs `GET /share/{token}/{view|edit|check}` (README "Projects, templates, share links
 * and custom fields", "Share links"): no account needed, the token is the capability. HTML for
 * browsers, `{ok, item: SharedProjectView}` when the Accept header asks for JSON. Counted per caller
 * address against the standard hourly rate limit.
 */
export const sharePageRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const guard = publicPageGuard();

  app.get<{ Params: { token: string; mode: ShareMode } }>(
    '/share/:token/:mode',
    {
      schema: {
        hide: true,
        params: {
          type: 'object',
          required: ['token', 'mode'],
          properties: { token: { type: 'string', minLength: 1, maxLength: 64 }, mode: { type: 'string', enum: [...SHARE_MODES] } },
        },
      },
    },
    async (request, reply) => {
      void guard(request, reply);
      const view = await svc.store.run(sharedProjectView(svc, request.params.token, request.params.mode));
      if (wantsJson(request.headers.accept)) return { ok: true, item: view };
      return sendHtml(reply, renderSharedProject(view));
    },
  );
};
