/**
 * Tool names derived from a route's method and path (modules/mcp/tools.ts), by rule, so a new
 * route gets a name without anyone writing one: static segments become words (`shareLink` →
 * `share_link`), a word followed by a path parameter is made singular (`projects/:projectId` →
 * `project`), and the method and last segment choose the verb:
 * - `GET` ending in a parameter → `get_…`, ending in a plural word → `list_…`, else `get_…`;
 * - a last segment that is an action verb (`complete`, `copy`, `approve`…) → that verb first
 *   (`POST /projects/:projectId/copy` → `copy_project`);
 * - other `POST`s → `create_…` with the last word singular;
 * - `PATCH`, and `PUT` ending in a parameter → `update_…`, other `PUT`s → `set_…`; `DELETE` → `delete_…`;
 * - `/me` is `me` at the end of a path, `my` before more (`/me/projects` → `list_my_projects`).
 */

/** Last path segments read as verbs: the tool is named for the action. */
const ACTION_VERBS = new Set([
  'accept',
  'approve',
  'cancel',
  'complete',
  'copy',
  'decide',
  'disable',
  'enable',
  'export',
  'generate',
  'import',
  'inspect',
  'move',
  'reject',
  'replay',
  'restore',
  'rotate',
  'test',
  'uncomplete',
]);

/** `shareLink`, `from-template` → `share_link`, `from_template`. */
function snake(segment: string): string {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

/** The singular of a plural path word (`medias` → `media`, `entries` → `entry`). */
function singular(word: string): string {
  if (word === 'medias') return 'media';
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function plural(word: string): boolean {
  return singular(word) !== word;
}

/**
 * The tool name of a route: `[a-z0-9_]`, at most 128 characters (MCP `Tool.name`).
 * @param method the HTTP method.
 * @param path the route's path after `/api/v1`, Fastify syntax (`/projects/:projectId/copy`).
 */
export function toolName(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const words: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment.startsWith(':')) {
      if (words.length > 0) words[words.length - 1] = singular(words[words.length - 1]!);
      continue;
    }
    words.push(segment === 'me' ? (index === segments.length - 1 ? 'me' : 'my') : snake(segment));
  }
  const endsInParam = segments[segments.length - 1]?.startsWith(':') ?? false;
  const last = words[words.length - 1] ?? '';
  const lastPart = last.split('_').pop() ?? '';
  let name: string;
  if (!endsInParam && ACTION_VERBS.has(lastPart)) {
    const rest = [...words.slice(0, -1), ...last.split('_').slice(0, -1)];
    name = [lastPart, ...rest].join('_');
  } else if (method === 'GET') {
    name = (endsInParam || !plural(last) ? 'get_' : 'list_') + words.join('_');
  } else if (method === 'POST') {
    name = endsInParam ? 'send_' + words.join('_') : 'create_' + [...words.slice(0, -1), singular(last)].join('_');
  } else if (method === 'PUT' || method === 'PATCH') {
    name = (endsInParam || method === 'PATCH' ? 'update_' : 'set_') + words.join('_');
  } else {
    name = 'delete_' + words.join('_');
  }
  return name.slice(0, 128);
}
