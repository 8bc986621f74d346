import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * The declarations of the service's routes as they were registered (method, full URL, TypeBox
 * schemas, route config), collected by an `onRoute` hook on the root app before the route table
 * registers its groups. The MCP tools are derived from this (modules/mcp/tools.ts), so the REST
 * routes and the tools come from one declaration per route, as the OpenAPI document does.
 */

/** One declared route: a single method (HEAD routes Fastify adds for GETs are left out). */
export interface DeclaredRoute {
  method: string;
  /** The full path with its prefix, Fastify syntax (`/api/v1/projects/:projectId`). */
  url: string;
  schema: {
    summary?: string;
    description?: string;
    tags?: string[];
    hide?: boolean;
    params?: unknown;
    querystring?: unknown;
    body?: unknown;
    consumes?: string[];
    response?: Record<string, unknown>;
  };
  config: { auth?: string; firstParty?: boolean; rateLimit?: string };
}

/** The routes of one app, in registration order. */
export class RouteCatalog {
  private readonly routes: DeclaredRoute[] = [];

  /** Starts collecting: every route registered on `app` (and its child scopes) from now on. */
  collectFrom(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        this.routes.push({
          method,
          url: route.url,
          schema: (route.schema ?? {}) as DeclaredRoute['schema'],
          config: (route.config ?? {}) as DeclaredRoute['config'],
        });
      }
    });
  }

  /** Every route collected so far. */
  all(): readonly DeclaredRoute[] {
    return this.routes;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The declared routes (modules/mcp/catalog.ts), set by `registerRoutes`. */
    routeCatalog: RouteCatalog;
  }
}
