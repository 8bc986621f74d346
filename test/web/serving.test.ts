import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { call, startServer, type TestServer } from '../helpers/server';

/**
 * The web app as the service serves it (docs "Web app"): index.html with a strict CSP for every
 * screen, hashed assets with a year-long immutable cache, API paths untouched. `npm test` builds
 * web/dist first (web/scripts/build.mjs).
 */
describe('serving the web app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test.each(['/', '/sign-in', '/projects/abc123'])('%s answers the app with a strict CSP and no cache', async (url) => {
    const res = await call(server.url, 'GET', url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  test("every screen of the app's router is served (server and web app agree)", async () => {
    const router = fs.readFileSync(path.resolve(__dirname, '../../web/src/router.tsx'), 'utf8');
    // '*' is the in-app "Page not found" screen, tested below.
    const paths = [...router.matchAll(/path: '([^'*]+)'/g)].map((m) => (m[1]!.startsWith('/') ? m[1]! : `/${m[1]}`));
    expect(paths.length).toBeGreaterThan(3);
    for (const screen of paths) {
      const res = await call(server.url, 'GET', screen.replace(/:[A-Za-z]+/g, 'x1'));
      expect([screen, res.status, String(res.headers['content-type'])]).toEqual([screen, 200, expect.stringContaining('text/html')]);
    }
  });

  test('hashed assets are served with a year-long immutable cache; unknown assets are 404', async () => {
    const index = (await call(server.url, 'GET', '/')).body as string;
    const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await call(server.url, 'GET', asset);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await call(server.url, 'GET', '/assets/nope-123.js')).status).toBe(404);
  });

  test('hashed assets are sent precompressed (brotli, else gzip) when the browser accepts it', async () => {
    const index = (await call(server.url, 'GET', '/')).body as string;
    const script = index.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const plain = await call(server.url, 'GET', script);
    const br = await call(server.url, 'GET', script, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 2);
    const gzip = await call(server.url, 'GET', script, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  test('a browser opening an unknown path gets the app (its "Page not found" screen); API clients keep the JSON 404', async () => {
    const page = await call(server.url, 'GET', '/no-such-screen', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    const api = await call(server.url, 'GET', '/api/v1/no-such-thing', { token: server.token, headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  test('server-rendered pages use the shared stylesheet from the service itself (no inline styles)', async () => {
    const res = await call(server.url, 'GET', '/setup?token=not-a-link', { headers: { accept: 'text/html' } });
    expect(res.headers['content-type']).toContain('text/html');
    const href = String(res.body).match(/<link rel="stylesheet" href="(\/assets\/pages-[\w-]+\.css)">/)?.[1];
    expect(href).toBeDefined();
    expect(String(res.body)).not.toMatch(/<style|style="/);
    expect(String(res.headers['content-security-policy'])).toContain("style-src 'self'");
    const css = await call(server.url, 'GET', href!);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    expect(String(css.body)).toContain('--color-accent');
  });

  test('API and unknown paths keep their JSON answers', async () => {
    const unknown = await call(server.url, 'GET', '/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const api = await call(server.url, 'GET', '/api/v1/me');
    expect(api.status).toBe(401);
    expect(api.headers['content-type']).toContain('application/json');
    expect((await call(server.url, 'GET', '/healthz')).body).toEqual({ ok: true, role: 'all', leader: true });
  });

  test('without a built app the screens say how to build it (503)', async () => {
    const empty = fs.mkdtempSync(path.join(server.dataDir, 'web-'));
    const bare = await startServer({ env: { TASKSPACE_WEB_DIR: empty } });
    try {
      const res = await call(bare.url, 'GET', '/');
      expect(res.status).toBe(503);
      expect(res.body).toContain('npm run build -w web');
    } finally {
      await bare.close();
    }
  });

  test("the app's API types match the service's OpenAPI document", () => {
    const root = path.resolve(__dirname, '../..');
    expect(() =>
      execFileSync(process.execPath, [path.join(root, 'web/scripts/api-types.mjs'), '--check'], { cwd: root, stdio: 'pipe' }),
    ).not.toThrow();
  });
});
