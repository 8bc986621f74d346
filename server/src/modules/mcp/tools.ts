import type { DeclaredRoute, RouteCatalog } from './catalog';
import { reasonWithoutTool } from './exclusions';
import { toolName } from './naming';
import { requiredScope, type OAuthScope } from '../../auth/scopes';

/**
 * MCP tools derived from the REST routes' declarations (docs/mcp.md "Tools"): one tool per
 * route under `/api/v1` that {@link reasonWithoutTool} does not leave out. The input schema joins
 * the route's path parameters, query and JSON body; the output schema is its 200 answer; the
 * annotations follow its method. A call runs the route in-process with the caller's token
 * (modules/mcp/invoke.ts), so every check of the REST API applies.
 */

/**
 * A JSON Schema object as MCP carries it (`Tool.inputSchema`, `Tool.outputSchema`): assembled
 * from the route's TypeBox schemas, never declared by hand.
 */
export interface ObjectSchema {
  properties?: Record<string, object>;
  type: 'object';
  required?: string[];
  [keyword: string]: unknown;
}

/** MCP `ToolAnnotations` (specification 2025-06-18, "Tools"). */
export interface ToolHints {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool and how its arguments map onto its route. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: ObjectSchema;
  /** The route's 200 answer schema, when it is an object (MCP output schemas are objects). */
  outputSchema?: ObjectSchema;
  annotations: ToolHints;
  /** The scope a credential needs to call it (`read` for GET, else `write`). */
  scope: OAuthScope;
  route: DeclaredRoute;
  /** Argument names that fill the path, the query string, and the body's top level. */
  pathKeys: string[];
  queryKeys: string[];
  /** `flat`: the body's properties are arguments; `nested`: the body is the `body` argument. */
  body: 'none' | 'flat' | 'nested';
  bodyKeys: string[];
}

/** A deep copy without TypeBox's symbol keys, as plain JSON Schema. */
function plain(schema: unknown): ObjectSchema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  return JSON.parse(JSON.stringify(schema)) as ObjectSchema;
}

function propertiesOf(schema: ObjectSchema | undefined): { properties: Record<string, object>; required: string[] } {
  return { properties: schema?.properties ?? {}, required: schema?.required ?? [] };
}

/** Annotations by method: GET reads; DELETE and PUT (a replacement) may destroy; PUT, PATCH and DELETE are idempotent. */
function hints(method: string, title: string): ToolHints {
  const read = method === 'GET';
  return {
    title,
    readOnlyHint: read,
    destructiveHint: method === 'DELETE' || method === 'PUT',
    idempotentHint: read || method === 'PUT' || method === 'DELETE' || method === 'PATCH',
    openWorldHint: false,
  };
}

/** The sentence a model reads: the route's summary, its paging, the scope, that roles apply. */
function describe(route: DeclaredRoute, queryKeys: string[], scope: OAuthScope): string {
  const summary = (route.schema.summary ?? '').replace(/\.$/, '');
  const parts = [summary + '.'];
  if (route.schema.description) parts.push(route.schema.description);
  if (queryKeys.includes('after') || queryKeys.includes('before'))
    parts.push('Paged by cursor: pass the last item id as `after` for the next page (`limit` items at most).');
  else if (queryKeys.includes('page')) parts.push('Paged: `page` (from 1) and `limit`.');
  const path = route.url.replace(/^\/api\/v1/, '').replace(/\/$/, '');
  parts.push(`REST: ${route.method} /api/v1${path}. Needs the '${scope}' scope; the caller's role in the workspace applies.`);
  return parts.join(' ');
}

/**
 * The JSON schema of a route's 200 answer: the schema itself, or, for a route that may also
 * stream (`content` by media type, as `@fastify/swagger` takes it), its `application/json` one.
 */
function jsonAnswer(response: unknown): ObjectSchema | undefined {
  const schema = plain(response);
  const content = schema?.content as Record<string, { schema?: unknown }> | undefined;
  if (content) return plain(content['application/json']?.schema);
  return schema;
}

/** The tool of one route (which {@link reasonWithoutTool} does not leave out). */
export function toolForRoute(route: DeclaredRoute): ToolSpec {
  const path = route.url.replace(/^\/api\/v1/, '').replace(/\/$/, '');
  const name = toolName(route.method, path);
  const params = propertiesOf(plain(route.schema.params));
  const query = propertiesOf(plain(route.schema.querystring));
  const bodySchema = plain(route.schema.body);
  const properties: Record<string, object> = { ...params.properties, ...query.properties };
  const required = [...params.required, ...query.required];
  let body: ToolSpec['body'] = 'none';
  let bodyKeys: string[] = [];
  if (bodySchema) {
    const bodyProps = propertiesOf(bodySchema);
    const flat =
      bodySchema.type === 'object' &&
      Object.keys(bodyProps.properties).length > 0 &&
      !Object.keys(bodyProps.properties).some((key) => key in properties || key === 'body');
    if (flat) {
      body = 'flat';
      bodyKeys = Object.keys(bodyProps.properties);
      Object.assign(properties, bodyProps.properties);
      required.push(...bodyProps.required);
    } else {
      body = 'nested';
      bodyKeys = ['body'];
      properties.body = bodySchema;
      required.push('body');
    }
  }
  const scope = requiredScope(route.method, route.url);
  const ok = jsonAnswer(route.schema.response?.['200']);
  const queryKeys = Object.keys(query.properties);
  return {
    name,
    description: describe(route, queryKeys, scope),
    // Assembled from the route's own schemas (see ObjectSchema).
    inputSchema: { properties, type: 'object', ...(required.length > 0 ? { required } : {}) },
    ...(ok && ok.type === 'object' ? { outputSchema: ok } : {}),
    annotations: hints(route.method, route.schema.summary ?? name),
    scope,
    route,
    pathKeys: Object.keys(params.properties),
    queryKeys,
    body,
    bodyKeys,
  };
}

/**
 * Every tool of an app, by name, in route order.
 * @throws Error when two routes would get one name (a new naming rule is needed).
 */
export function buildTools(catalog: RouteCatalog): Map<string, ToolSpec> {
  const tools = new Map<string, ToolSpec>();
  for (const route of catalog.all()) {
    if (reasonWithoutTool(route) !== undefined) continue;
    const tool = toolForRoute(route);
    const existing = tools.get(tool.name);
    if (existing)
      throw new Error(
        `MCP tool name ${tool.name} of ${route.method} ${route.url} is taken by ${existing.route.method} ${existing.route.url}`,
      );
    tools.set(tool.name, tool);
  }
  return tools;
}
