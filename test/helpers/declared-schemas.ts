import AjvCompiler from '@fastify/ajv-compiler';
import { call, type TestServer } from './server';

/** A compiled validator: true when valid, else its `errors`. */
export type ValidateFunction = ((data: unknown) => boolean) & { errors?: unknown };

/** The parts of `/openapi.json` the checks read. */
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/** Checks of real answers against the response schemas `/openapi.json` declares (issue 23, item 1). */
export interface DeclaredSchemas {
  /** The validator of the declared response of `method` `route` (as documented, e.g. `/api/v1/projects/{projectId}`) for `status`. */
  declared(method: string, route: string, status: number): ValidateFunction;
  /**
   * Calls `method` `path` as the server's owner and expects status `opts.status` (default 200)
   * and a body valid for the declared schema of `route` at that status.
   * @returns the answer's body.
   */
  conforms(method: string, route: string, path: string, opts?: { body?: unknown; status?: number }): Promise<any>;
}

/**
 * Reads the server's OpenAPI document and compiles its response schemas with Fastify's own ajv
 * (ajv 8 and ajv-formats), strict about types: no coercion, no defaults, nothing removed. So a
 * field the server sends that the document does not declare (exact objects), a missing required
 * field, a wrong type, format or enum fails the check.
 */
export async function declaredSchemas(server: TestServer): Promise<DeclaredSchemas> {
  const document = (await call<OpenApiDocument>(server.url, 'GET', '/openapi.json')).body;
  // OpenAPI 3.0 schemas (`nullable`, formats); the document itself is an external schema, so its refs resolve.
  const build = AjvCompiler()({ openapi: { ...document, $id: 'openapi' } }, {
    customOptions: { strict: false, allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false },
  } as never);
  const validators = new Map<string, ValidateFunction>();

  function declared(method: string, route: string, status: number): ValidateFunction {
    const key = `${method} ${route} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      const operation = document.paths[route]?.[method.toLowerCase()];
      if (!operation?.responses[String(status)]?.content) throw new Error(`no declared ${status} response for ${method} ${route}`);
      const pointer = ['paths', route, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']
        .map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1')))
        .join('/');
      validate = build({
        schema: { $ref: `openapi#/${pointer}` },
        method: 'GET',
        url: '/',
        httpPart: 'body',
      }) as unknown as ValidateFunction;
      validators.set(key, validate);
    }
    return validate;
  }

  async function conforms(method: string, route: string, path: string, opts: { body?: unknown; status?: number } = {}) {
    const res = await call(server.url, method, path, { token: server.token, body: opts.body });
    expect({ path, status: res.status }).toEqual({ path, status: opts.status ?? 200 });
    const validate = declared(method, route, res.status);
    expect({ path, errors: validate(res.body) ? null : validate.errors }).toEqual({ path, errors: null });
    return res.body;
  }

  return { declared, conforms };
}
