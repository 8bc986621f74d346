import net from 'node:net';
import { call, client, startServer, type TestServer } from '../helpers/server';
import { jsonDepth } from '../../server/src/http/json-depth';

/** Request limits (docs "Configuration", "API notes"): JSON nesting depth and request/header timeouts. */
describe('JSON nesting depth', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1' } });
  });
  afterAll(() => server.close());

  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  test('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[[{{{"}]}', 100)).toBe(3);
    expect(jsonDepth('"\\"[[["', 100)).toBe(0);
    expect(jsonDepth(nested(50), 100)).toBe(50);
    expect(jsonDepth(nested(5000), 100)).toBe(101);
  });

  test('an API body nesting 6,000 levels is 400 too_deep, not a 500, and the server keeps serving', async () => {
    const res = await call(server.url, 'POST', '/api/v1/automations', {
      token: server.token,
      rawBody: `{"workspaceId":"x","name":${nested(6000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', error: { details: { field: 'body', reason: 'too_deep' } } });
    expect(res.body.message).toContain('100 levels');
    expect((await call(server.url, 'GET', '/api/v1/me', { token: server.token })).status).toBe(200);
  });

  test('the limit is exact: 100 levels parse, 101 do not', async () => {
    const at = await call(server.url, 'POST', '/api/v1/automations', {
      token: server.token,
      rawBody: `{"name":${nested(99)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(at.status).toBe(400);
    expect(at.body.error.details.reason).not.toBe('too_deep');
    const over = await call(server.url, 'POST', '/api/v1/automations', {
      token: server.token,
      rawBody: `{"name":${nested(100)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(over.body.error.details).toEqual({ field: 'body', reason: 'too_deep' });
  });

  test('the inbound webhook URL (no token needed) refuses deep bodies the same way; normal calls still pass', async () => {
    const api = client(server, server.token);
    const created = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Deep',
      trigger: { type: 'webhook' },
      actions: [],
    });
    const path = new URL(created.body.item.webhook.url).pathname;
    const res = await call(server.url, 'POST', path, { rawBody: `{"a":${nested(6000)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'body', reason: 'too_deep' });
    const ok = await call(server.url, 'POST', path, { body: { a: 1 } });
    expect(ok.status).toBe(200);
    const runs = await api.get(`/api/v1/automations/${created.body.item.id}/runs?requestId=${ok.body.requestId}`);
    expect(runs.status).toBe(200);
  });
});

describe('request timeouts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_REQUEST_TIMEOUT_MS: '800', TASKSPACE_HEADERS_TIMEOUT_MS: '400' } });
  });
  afterAll(() => server.close());

  /** Sends `raw`, then reads until the server closes the connection; resolves to what it answered. */
  function sendAndWaitForClose(raw: string): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(raw));
      let answer = '';
      socket.on('data', (d) => (answer += d.toString('utf8')));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  test('a client that sends headers and part of a body gets 408 in the envelope and is cut off', async () => {
    const answer = await sendAndWaitForClose(
      `POST /api/v1/automations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
  });

  test('a client that never finishes its headers is cut off too', async () => {
    const answer = await sendAndWaitForClose('GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  test('headers timeout above the request timeout is a configuration error', async () => {
    await expect(startServer({ env: { TASKSPACE_REQUEST_TIMEOUT_MS: '1000', TASKSPACE_HEADERS_TIMEOUT_MS: '2000' } })).rejects.toThrow(
      /must not exceed/,
    );
  });
});
