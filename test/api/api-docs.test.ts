import { call, startServer, type TestServer } from '../helpers/server';

/** The `src` and `href` of every script and link element of a page. */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
}

describe('interactive API docs at /docs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test.each(['/docs', '/docs/'])('GET %s is an HTML page whose scripts and styles all load', async (page) => {
    const res = await call<string>(server.url, 'GET', page);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    const assets = assetsOf(res.body);
    expect(assets.filter((a) => a.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    expect(assets.filter((a) => a.endsWith('.css')).length).toBeGreaterThanOrEqual(1);
    for (const asset of assets) {
      const url = new URL(asset, server.url + page);
      expect(url.origin).toBe(server.url); // nothing is fetched from elsewhere
      const loaded = await call<string>(server.url, 'GET', url.pathname);
      expect([url.pathname, loaded.status]).toEqual([url.pathname, 200]);
      expect(loaded.body.length).toBeGreaterThan(0);
    }
  });

  test('the UI reads the same OpenAPI document that /openapi.json serves', async () => {
    const initializer = await call<string>(server.url, 'GET', '/docs/static/swagger-initializer.js');
    expect(initializer.status).toBe(200);
    expect(initializer.body).toContain("'./json'");
    const fromUi = await call(server.url, 'GET', '/docs/json');
    const document = await call(server.url, 'GET', '/openapi.json');
    expect(fromUi.status).toBe(200);
    expect(document.status).toBe(200);
    expect(document.body.openapi).toBe('3.0.3');
    expect(fromUi.body).toEqual(document.body);
    expect(Object.keys(document.body.paths)).not.toContain('/docs');
  });

  test('unknown paths under /docs and elsewhere keep the JSON 404 envelope', async () => {
    for (const p of ['/docs/static/nope.js', '/docs/nope', '/nope', '/api/v1/nope']) {
      const res = await call(server.url, 'GET', p, { token: server.token });
      expect([p, res.status]).toEqual([p, 404]);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    }
  });
});
