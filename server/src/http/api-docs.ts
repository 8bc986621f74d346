import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';

/** Where the interactive API docs are served; `/` stays free for a web app. */
export const API_DOCS_PREFIX = '/docs';

/**
 * Serves Swagger UI at `/docs` over the OpenAPI document that `@fastify/swagger` builds (the same
 * one `/openapi.json` returns; the UI reads it from `/docs/json`). The UI's assets ship inside the
 * `@fastify/swagger-ui` package and are served from `/docs/static/*` without `reply.sendFile`
 * being decorated, so a static web app can be registered at `/` later. Register after
 * `@fastify/swagger`. Unknown paths under `/docs` fall through to the app's JSON 404.
 */
export async function installApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
  });
}
