import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sharedProjectView, type SharedProjectView } from './service';
import { sharePageParams } from './schemas';
import { escapeHtml, publicPageGuard, sendHtml, wantsJson } from '../../http/public-pages';
import { pagesStylesheetLink } from '../../http/page-style';

/**
 * The HTML page of a shared project: name and tasks as an indented checklist (nesting by class,
 * d1…d8), in the app's look from `stylesheetLink` (page-style.ts); every value escaped.
 */
export function renderSharedProject(view: SharedProjectView, stylesheetLink = ''): string {
  const e = escapeHtml;
  const tasks = view.tasks
    .map((t) => {
      const classes = [t.depth > 0 ? `d${Math.min(t.depth, 8)}` : '', t.completed ? 'done' : ''].filter(Boolean).join(' ');
      return `<li${classes ? ` class="${classes}"` : ''}>${t.completed ? '☑' : '☐'} ${e(t.text)}</li>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${e(view.project.name)}</title>${stylesheetLink}
</head><body class="page page-wide"><main class="page-main">
<h1>${e(view.project.name)}${view.project.completed ? ' <span class="badge badge-success">completed</span>' : ''}</h1>
<ul class="outline">
${tasks}
</ul>
${view.truncated ? `<p class="muted">Only the first ${view.tasks.length} tasks are shown.</p>` : ''}
<p class="page-foot">Shared read-only with Taskspace</p>
</main></body></html>
`;
}

/**
 * The share URLs `GET /share/{token}/{view|edit|check}` (README "Projects, templates, share links
 * and custom fields", "Share links"): no account needed, the token is the capability. HTML for
 * browsers, `{ok, item: SharedProjectView}` when the Accept header asks for JSON. Counted per caller
 * address against the standard hourly rate limit.
 */
export const sharePageRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const guard = publicPageGuard();

  app.get('/share/:token/:mode', { schema: { hide: true, params: sharePageParams } }, async (request, reply) => {
    void guard(request, reply);
    const view = await svc.store.run(sharedProjectView(svc, request.params.token, request.params.mode));
    if (wantsJson(request.headers.accept)) return { ok: true, item: view };
    return sendHtml(reply, renderSharedProject(view, pagesStylesheetLink(reply)));
  });
};
