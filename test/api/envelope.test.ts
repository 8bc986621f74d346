import net from 'node:net';
import { STATUS_CODES } from 'node:http';
import { addUser, call, client, startServer, OWNER_TOKEN, type Reply, type TestServer } from '../helpers/server';

/**
 * One envelope and one set of rate-limit headers on every kind of response (README "Errors",
 * "Rate limits"; spec section 8): success, validation, 401, 403, unknown routes, wrong methods,
 * 413, 415, the router's and Node's own errors (400, 414, 431), 429, public pages, inbound
 * webhooks, the OpenAPI document and the health probe.
 */

/** Sends `raw` bytes over a plain socket (for requests undici refuses to send) and parses the answer. */
function rawRequest(url: string, raw: string): Promise<Reply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length']);
      const body = Buffer.from(text.slice(split + 4))
        .subarray(0, length)
        .toString('utf8');
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: headers['content-type']?.includes('json') ? JSON.parse(body) : body,
      });
    });
    socket.write(raw);
  });
}

/** A GET with `Connection: close`, so the server ends the socket after its answer. */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const lines = Object.entries({ host: 'localhost', connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  return rawRequest(url, `GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
}

/** The three X-RateLimit-* headers as numbers; fails when one is missing. */
function rate(res: Reply): { limit: number; remaining: number; reset: number } {
  const read = (name: string) => {
    const value = res.headers[name];
    expect({ header: name, present: typeof value === 'string' && /^\d+$/.test(value) }).toEqual({ header: name, present: true });
    return Number(value);
  };
  const result = { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), reset: read('x-ratelimit-reset') };
  expect(result.reset).toBeGreaterThan(Date.now() / 1000 - 1);
  return result;
}

/** Asserts the error envelope with `code` and `message` both at the top level and under `error`. */
function envelope(res: Reply, status: number, code: string): string {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.body).toMatchObject({
    ok: false,
    code,
    message: expect.any(String),
    statusMessage: STATUS_CODES[status],
    error: { code, message: res.body.message },
  });
  return res.body.message as string;
}

describe('one envelope and one set of headers on every response', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BODY_LIMIT_BYTES: '2048', TASKSPACE_INBOUND_RATE_PER_MINUTE: '30' } });
    api = client(server, OWNER_TOKEN);
  });
  afterAll(() => server.close());
  const folders = () => `/api/v1/workspaces/${server.workspaceId}/folders`;

  test('success, validation 400, 401, 403: headers on each, errors in both forms', async () => {
    const ok = await api.get('/api/v1/workspaces');
    expect(ok.status).toBe(200);
    expect(rate(ok).limit).toBe(2147483647);

    const invalid = await api.post(folders(), { name: 'a\nb' });
    envelope(invalid, 400, 'VALIDATION_ERROR');
    expect(invalid.body.error.details).toEqual({ field: 'name', reason: 'contains_line_break' });
    rate(invalid);

    const anonymous = await call(server.url, 'GET', '/api/v1/workspaces');
    expect(envelope(anonymous, 401, 'INVALID_TOKEN')).toBe('missing bearer token');
    expect(rate(anonymous).limit).toBe(1000);

    const viewer = addUser(server, 'env-viewer', { workspaceId: server.workspaceId, role: 'Viewer' });
    const denied = await client(server, viewer).post(folders(), { name: 'x' });
    envelope(denied, 403, 'FORBIDDEN');
    expect(rate(denied).limit).toBe(1000);
  });

  test('unknown /api routes and wrong methods are counted against the account and carry the headers', async () => {
    const reader = addUser(server, 'env-reader', { workspaceId: server.workspaceId, role: 'Viewer' });
    const first = await client(server, reader).get('/api/v1/nothing-here');
    envelope(first, 404, 'NOT_FOUND');
    const second = await client(server, reader).get('/api/v3/elsewhere');
    envelope(second, 404, 'NOT_FOUND');
    const wrongMethod = await client(server, reader).patch('/api/v1/workspaces', {});
    envelope(wrongMethod, 404, 'NOT_FOUND');
    expect([rate(first).remaining, rate(second).remaining, rate(wrongMethod).remaining]).toEqual([999, 998, 997]);
    // Without a token, an unknown /api route is 401 like every other API call.
    envelope(await call(server.url, 'GET', '/api/v1/nothing-here'), 401, 'INVALID_TOKEN');
  });

  test('413 and 415 carry the headers; 415 names the type received and the types the route takes', async () => {
    const large = await call(server.url, 'POST', folders(), { token: OWNER_TOKEN, body: { name: 'x'.repeat(5000) } });
    envelope(large, 413, 'PAYLOAD_TOO_LARGE');
    rate(large);

    const text = await call(server.url, 'POST', folders(), {
      token: OWNER_TOKEN,
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(envelope(text, 415, 'UNSUPPORTED_MEDIA_TYPE')).toBe('Content-Type "text/plain" is not supported here; send application/json');
    rate(text);

    const upload = await call(server.url, 'POST', `/api/v1/folders/${server.workspaceId}/medias`, {
      token: OWNER_TOKEN,
      body: { file: 'x' },
    });
    expect(envelope(upload, 415, 'UNSUPPORTED_MEDIA_TYPE')).toBe(
      'Content-Type "application/json" is not supported here; send multipart/form-data',
    );
    rate(upload);
  });

  test("the router's 400 (bad percent-encoding) and 414 (over-long path parameter) are in the envelope, counted", async () => {
    const before = rate(await client(server, null).get('/nowhere')).remaining;
    const bad = await rawGet(server.url, '/share/%zz/view');
    expect(envelope(bad, 400, 'VALIDATION_ERROR')).toMatch(/percent-encoding/);
    expect(bad.body.error.details).toEqual({ field: 'path', reason: 'invalid_encoding' });
    expect(rate(bad).remaining).toBe(before - 1);

    const long = await rawGet(server.url, `/api/v1/projects/${'a'.repeat(9000)}`, { authorization: `Bearer ${OWNER_TOKEN}` });
    envelope(long, 414, 'URI_TOO_LONG');
    expect(rate(long).limit).toBe(2147483647);

    const badApi = await rawGet(server.url, '/api/v1/projects/%zz', { authorization: `Bearer ${OWNER_TOKEN}` });
    envelope(badApi, 400, 'VALIDATION_ERROR');
    expect(rate(badApi).limit).toBe(2147483647);
  });

  test("Node's own 431 (oversized headers) and 400 (malformed request) are in the envelope with the address budget", async () => {
    const before = rate(await client(server, null).get('/nowhere')).remaining;
    const huge = await rawGet(server.url, '/api/v1/workspaces', { 'x-filler': 'y'.repeat(20000) });
    envelope(huge, 431, 'HEADERS_TOO_LARGE');
    expect(huge.headers.connection).toBe('close');
    // Reported, not counted: no request exists yet.
    expect(rate(huge)).toMatchObject({ limit: 1000, remaining: before });

    const garbage = await rawRequest(server.url, 'NOT HTTP AT ALL\r\n\r\n');
    envelope(garbage, 400, 'BAD_REQUEST');
    expect(rate(garbage).remaining).toBe(before);
  });

  test('public pages, unknown pages and the OpenAPI document spend the one anonymous budget per address', async () => {
    const project = (
      await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: '# Shared' })
    ).body.item;
    const { viewUrl } = (await api.put(`/api/v1/projects/${project.id}/shareLink`)).body.item;
    const page = await call(server.url, 'GET', new URL(viewUrl).pathname, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const missingPage = await call(server.url, 'GET', '/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/view');
    envelope(missingPage, 404, 'NOT_FOUND');
    const unknown = await call(server.url, 'GET', '/no/such/page');
    envelope(unknown, 404, 'NOT_FOUND');
    const doc = await call(server.url, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const seen = [page, missingPage, unknown, doc].map((res) => rate(res).remaining);
    expect(seen).toEqual([seen[0]!, seen[0]! - 1, seen[0]! - 2, seen[0]! - 3]);
  });

  test('the health probe reports the address budget without spending it', async () => {
    const first = await call(server.url, 'GET', '/healthz');
    const second = await call(server.url, 'GET', '/healthz');
    expect(first.body).toEqual({ ok: true, role: 'all', leader: true });
    expect(rate(first).limit).toBe(1000);
    expect(rate(second).remaining).toBe(rate(first).remaining);
  });

  test("inbound webhook answers report the URL's own throttle, also on 404, 400 and 413", async () => {
    const automation = (
      await api.post('/api/v1/automations', { workspaceId: server.workspaceId, name: 'Hook', trigger: { type: 'webhook' }, actions: [] })
    ).body.item;
    const path = new URL(automation.webhook.url).pathname;
    const accepted = await call(server.url, 'POST', path, { body: { a: 1 } });
    expect(accepted.status).toBe(200);
    expect(rate(accepted)).toMatchObject({ limit: 30, remaining: 29 });
    const malformed = await call(server.url, 'POST', path, { rawBody: '{"a":', headers: { 'content-type': 'application/json' } });
    envelope(malformed, 400, 'INVALID_JSON');
    expect(rate(malformed)).toMatchObject({ limit: 30, remaining: 28 });
    const large = await call(server.url, 'POST', path, { body: { a: 'x'.repeat(5000) } });
    envelope(large, 413, 'PAYLOAD_TOO_LARGE');
    expect(rate(large).limit).toBe(30);
    const unknown = await call(server.url, 'POST', '/webhooks/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { body: { a: 1 } });
    envelope(unknown, 404, 'NOT_FOUND');
    expect(rate(unknown)).toMatchObject({ limit: 30, remaining: 30 });
    // Past the URL's throttle: 429 with Retry-After and nothing remaining; the hourly budget is untouched.
    const anonymousBefore = rate(await call(server.url, 'GET', '/healthz')).remaining;
    let last = accepted;
    for (let i = 0; i < 30 && last.status !== 429; i++) last = await call(server.url, 'POST', path, { body: { i } });
    envelope(last, 429, 'RATE_LIMITED');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(rate(last)).toMatchObject({ limit: 30, remaining: 0 });
    expect(rate(await call(server.url, 'GET', '/healthz')).remaining).toBe(anonymousBefore);
  });

  test('the OpenAPI document describes the envelope with top-level code, message and statusMessage', async () => {
    const doc = (await call(server.url, 'GET', '/openapi.json')).body;
    const schemas = Object.values(doc.components.schemas) as {
      title?: string;
      required?: string[];
      properties?: Record<string, unknown>;
    }[];
    const errorSchema = schemas.find((s) => s.title === 'ErrorEnvelope');
    expect(errorSchema?.required).toEqual(['ok', 'code', 'message', 'statusMessage', 'error']);
    expect(Object.keys(errorSchema?.properties ?? {})).toEqual(['ok', 'code', 'message', 'statusMessage', 'error']);
  });
});

describe('429 everywhere, with Retry-After', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_RATE_LIMIT_STANDARD: '2' } });
  });
  afterAll(() => server.close());

  test('an account at its limit gets 429 on unknown /api routes too', async () => {
    const user = addUser(server, 'env-limited', { workspaceId: server.workspaceId, role: 'Viewer' });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await client(server, user).get('/api/v1/not-a-route'));
    expect(answers.map((res) => res.status)).toEqual([404, 404, 429]);
    envelope(answers[2]!, 429, 'RATE_LIMITED');
    expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(rate(answers[2]!)).toMatchObject({ limit: 2, remaining: 0 });
  });

  test("public pages past the anonymous budget answer 429 with Retry-After; the framework's errors too", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await call(server.url, 'GET', '/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/view'));
    expect(statuses.map((res) => res.status)).toEqual([404, 404, 429]);
    const limited = statuses[2]!;
    envelope(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(rate(limited)).toMatchObject({ limit: 2, remaining: 0 });
    const badUrl = await rawGet(server.url, '/share/%zz/view');
    envelope(badUrl, 429, 'RATE_LIMITED');
    expect(Number(badUrl.headers['retry-after'])).toBeGreaterThan(0);
    // The health probe is never refused.
    const health = await call(server.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(rate(health).remaining).toBe(0);
  });
});
