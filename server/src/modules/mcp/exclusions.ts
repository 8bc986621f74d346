import type { DeclaredRoute } from './catalog';

/**
 * Why a REST route has no MCP tool (docs/mcp.md "Tools"). Every route under `/api` has a tool
 * unless one of these reasons applies; test/mcp/tool-coverage.test.ts fails for a route that has
 * neither, so a new route is either exposed or explained.
 */

/** Routes left out one by one, `METHOD /path` (Fastify syntax) → the reason. */
export const ROUTES_WITHOUT_TOOLS: Readonly<Record<string, string>> = {
  'POST /api/v1/folders/:folderId/medias': 'uploads a file as multipart/form-data; tool arguments are JSON',
  'GET /api/v1/medias/:mediaId/content': "answers the file's bytes, not JSON (get_media gives its metadata)",
  'GET /api/v1/live': 'a server-sent event stream for the web app, not a request with an answer',
  'GET /api/v1/projects/:projectId/presence': "who has a project open in the web app: a person's browser, not an assistant",
  'POST /api/v1/approvals/inspect':
    "decision links are for a person's signed-in browser; approve_automation_run and reject_automation_run decide by run",
  'POST /api/v1/approvals/decide':
    "decision links are for a person's signed-in browser; approve_automation_run and reject_automation_run decide by run",
  'POST /api/v1/auth/sign-out': "ends a browser session; an assistant's token is revoked under My account → Authorized apps",
  'POST /api/v1/folders/:folderId/agent-generate':
    'asks the model provider to write an agent: an assistant writes one itself and calls create_folder_agent',
};

/**
 * The reason `route` has no tool, or undefined when it has one: routes outside `/api/v1`
 * (public pages, OAuth endpoints, inbound webhook URLs, API v2's signed webhooks), hidden
 * aliases, routes that take no credential, first-party routes (docs/oauth.md "Threat model"),
 * and {@link ROUTES_WITHOUT_TOOLS}.
 */
export function reasonWithoutTool(route: DeclaredRoute): string | undefined {
  if (route.url.startsWith('/api/v2')) return "signed webhooks (API v2) deliver to a URL the caller runs and need the 'webhooks' scope";
  if (!route.url.startsWith('/api/v1/')) return 'not part of the REST API';
  if (route.schema.hide) return 'a hidden alias of a documented route';
  if (route.config.auth === 'none') return 'takes no credential (sign-in, account setup, invitations)';
  if (route.config.firstParty)
    return 'manages credentials, members or secrets: first-party credentials only (docs/oauth.md "Threat model")';
  return ROUTES_WITHOUT_TOOLS[`${route.method} ${route.url}`];
}
