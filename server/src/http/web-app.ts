import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { ServiceError } from '../errors';
import { MAX_PATH_PARAM_LENGTH, uriTooLong } from './error-handler';

/**
 * The paths of the web app's screens (web/src/router.tsx): each answers the app's index.html,
 * which then renders the screen. Every other path keeps its API meaning (unknown ones stay JSON
 * 404s), so API clients never receive HTML.
 */
export const WEB_APP_ROUTES = [
  '/',
  '/sign-in',
  '/invite',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/projects/:projectId',
  '/folders/:folderId/new-project',
  '/automations',
  '/automations/new',
  '/automations/:automationId',
  '/automations/:automationId/edit',
  '/automations/:automationId/runs/:runId',
  '/runs',
  '/approvals',
  '/decide',
  '/media',
  '/agents',
  '/agents/:agentId',
  '/settings/webhooks',
  '/settings/webhooks/:webhookId',
  '/settings/members',
  '/settings/account',
  '/settings/oauth-apps',
  '/settings/connections',
  '/settings/secrets',
  '/settings/workspace',
  '/workspaces/new',
  '/profile',
] as const;

/**
 * Path prefixes that never answer the app's index.html, even to a browser: the APIs, the OAuth
 * endpoints, discovery documents and the built assets.
 */
const NOT_APP_PREFIXES = ['/api/', '/oauth/', '/.well-known/', '/assets/'];

/**
 * Whether an unknown path should get the app (which shows its "Page not found" screen) rather
 * than the JSON 404: a GET from a browser navigation (Accept names text/html) outside
 * {@link NOT_APP_PREFIXES}.
 */
function wantsAppPage(url: string, accept: string | undefined): boolean {
  const pathname = url.split('?')[0]!;
  return (accept ?? '').includes('text/html') && !NOT_APP_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/**
 * The Content-Security-Policy of the web app: scripts, styles and API calls from the service's
 * own origin only (no inline scripts or styles), no framing, no plugins.
 */
const WEB_APP_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** One year, in seconds: hashed asset names change with their content. */
const ASSET_MAX_AGE_S = 365 * 24 * 3600;

/**
 * Serves the built web app (docs "Web app"): hashed files under `/assets/` with a year-long
 * immutable cache (brotli or gzip copies when the browser accepts them), and index.html (never
 * cached) for each of {@link WEB_APP_ROUTES} and for any other path a browser navigates to (the
 * app then shows "Page not found"), all with
 * the security headers of `@fastify/helmet` and a strict CSP. When the app is not built the
 * screens answer 503 with how to build it.
 */
export const webAppRoutes: FastifyPluginAsync = async (app) => {
  const { webDir } = app.services.config;
  await app.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: WEB_APP_CSP }, crossOriginEmbedderPolicy: false });
  const indexFile = path.join(webDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: path.join(webDir, 'assets'),
      prefix: '/assets/',
      index: false,
      wildcard: true,
      cacheControl: true,
      maxAge: ASSET_MAX_AGE_S * 1000,
      immutable: true,
      // web/scripts/build.mjs writes .br and .gz copies: sent as they are, by Accept-Encoding.
      preCompressed: true,
      // The same URL has several encodings: shared caches must key on Accept-Encoding.
      setHeaders: (res) => res.setHeader('Vary', 'Accept-Encoding'),
    });
  }
  const index = built ? fs.readFileSync(indexFile, 'utf8') : undefined;
  const sendIndex = (reply: FastifyReply) => {
    if (index === undefined) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('The Taskspace web app is not built. Run `npm start` (it builds it) or `npm run build -w web`.\n');
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(index);
  };
  for (const url of WEB_APP_ROUTES) app.get(url, { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  // Any other path: a browser gets the app, which shows its "Page not found" screen (answered 200
  // like the app's own routes: browsers log a 404 document as a console error); API clients get
  // the JSON 404 envelope as before. This route matches whatever the router found no other route
  // for, also a known route whose parameter is too long, which keeps its 414.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (wantsAppPage(request.url, request.headers.accept)) return sendIndex(reply);
    const pathname = request.url.split('?')[0]!;
    if (pathname.split('/').some((segment) => segment.length > MAX_PATH_PARAM_LENGTH)) return reply.status(414).send(uriTooLong().toBody());
    return reply.status(404).send(new ServiceError(404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`).toBody());
  });
};
