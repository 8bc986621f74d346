import { addUser, call, client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { waitFor } from '../helpers/wait';
import { storeEnv } from '../helpers/test-store';

describe('auth, errors, discovery and the admin CLI', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('a missing token is 401 INVALID_TOKEN with the envelope and rate-limit headers', async () => {
    const res = await call(server.url, 'GET', '/api/v1/workspaces');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      ok: false,
      code: 'INVALID_TOKEN',
      message: 'missing bearer token',
      statusMessage: 'Unauthorized',
      error: { code: 'INVALID_TOKEN', message: 'missing bearer token', details: { field: 'authorization', reason: 'missing_token' } },
    });
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
  });

  test('an unknown token is 401', async () => {
    const res = await call(server.url, 'GET', '/api/v1/workspaces', { token: 'tsk_nope' });
    expect(res.status).toBe(401);
    expect(res.body.error.details.reason).toBe('invalid_token');
  });

  test('the owner lists workspaces and the home folder, and can create a folder', async () => {
    const api = client(server, OWNER_TOKEN);
    const ws = await api.get('/api/v1/workspaces');
    expect(ws.status).toBe(200);
    expect(ws.body).toEqual({ ok: true, items: [{ id: server.workspaceId, name: 'My workspace', role: 'Owner' }] });
    const created = await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Clients' });
    expect(created.status).toBe(200);
    expect(created.body.item).toMatchObject({
      name: 'Clients',
      workspaceId: server.workspaceId,
      parentId: server.workspaceId,
      isHome: false,
    });
    const folders = await api.get(`/api/v1/workspaces/${server.workspaceId}/folders`);
    expect(folders.body.items.map((f: { name: string }) => f.name)).toEqual(['Home', 'Clients']);
    expect(folders.body.items[0].id).toBe(server.workspaceId);
  });

  test('validation failures name the field and reason', async () => {
    const api = client(server, OWNER_TOKEN);
    const missing = await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'name', reason: 'required' } });
    const newline = await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'a\nb' });
    expect(newline.body.error.details).toEqual({ field: 'name', reason: 'contains_line_break' });
  });

  test('malformed JSON is 400 INVALID_JSON, unknown routes 404 NOT_FOUND', async () => {
    const bad = await call(server.url, 'POST', `/api/v1/workspaces/${server.workspaceId}/folders`, {
      token: OWNER_TOKEN,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_JSON');
    const none = await call(server.url, 'GET', '/api/v1/nothing-here', { token: OWNER_TOKEN });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('NOT_FOUND');
  });

  test('a workspace the caller is not a member of is 404; a Viewer creating a folder is 403', async () => {
    const outsider = addUser(server, 'outsider');
    const viewer = addUser(server, 'viewer1', { workspaceId: server.workspaceId, role: 'Viewer' });
    const hidden = await client(server, outsider).get(`/api/v1/workspaces/${server.workspaceId}/folders`);
    expect(hidden.status).toBe(404);
    const denied = await client(server, viewer).post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const me = await client(server, viewer).get('/api/v1/me');
    expect(me.body.item).toMatchObject({ handle: 'viewer1', plan: 'free', rateTier: 'standard', verified: false });
  });

  test('CLI: tokens are stored hashed and revocation takes effect at once', async () => {
    const token = addUser(server, 'revokee', { workspaceId: server.workspaceId, role: 'Participant' });
    expect((await client(server, token).get('/api/v1/workspaces')).status).toBe(200);
    const list = runCli(server.dataDir, 'token', 'list', 'revokee');
    const id = list.out.split('\t')[0]!;
    const stored = (await dbOf(server).get<{ token_hash: string }>('SELECT token_hash FROM access_tokens WHERE id = ?', id))!;
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.token_hash).not.toContain(token);
    expect(runCli(server.dataDir, 'token', 'revoke', id).code).toBe(0);
    expect((await client(server, token).get('/api/v1/workspaces')).status).toBe(401);
    expect(runCli(server.dataDir, 'token', 'revoke', id).code).toBe(1);
  });

  test('CLI: plans, tiers and usage errors', () => {
    expect(runCli(server.dataDir, 'user', 'create', 'planner', '--plan', 'gold').code).toBe(1);
    expect(runCli(server.dataDir, 'user', 'create', 'planner').code).toBe(0);
    const updated = runCli(server.dataDir, 'user', 'update', 'planner', '--plan', 'pro', '--tier', 'premium', '--verified');
    expect(updated.out).toContain('plan=pro tier=premium verified=true');
    expect(runCli(server.dataDir, 'member', 'add', server.workspaceId, 'planner', 'Boss').code).toBe(1);
    expect(runCli(server.dataDir, 'frobnicate').code).toBe(2);
  });

  test('the `taskspace` bin runs the CLI as a process against the data directory', () => {
    const bin = require('node:path').resolve(__dirname, '../../server/bin/taskspace.js');
    const run = (...args: string[]) =>
      require('node:child_process').spawnSync(process.execPath, [bin, ...args], {
        env: { ...process.env, TASKSPACE_DATA_DIR: server.dataDir, ...storeEnv(server.dataDir) },
        encoding: 'utf8',
      });
    const listed = run('user', 'list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('@owner\tplan=enterprise');
    const usage = run('frobnicate');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: taskspace');
  });

  test('the OpenAPI document describes the routes', async () => {
    const res = await call(server.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(Object.keys(res.body.paths)).toContain('/api/v1/workspaces/{workspaceId}/folders');
  });
});

describe('rate limiting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_RATE_LIMIT_STANDARD: '3', TASKSPACE_RATE_LIMIT_PREMIUM: '5' } });
  });
  afterAll(() => server.close());

  test('standard accounts get 3 requests then 429 with headers; premium get their own limit', async () => {
    const standard = addUser(server, 'std', { workspaceId: server.workspaceId, role: 'Viewer' });
    const seen: [number, string][] = [];
    for (let i = 0; i < 4; i++) {
      const res = await client(server, standard).get('/api/v1/workspaces');
      seen.push([res.status, String(res.headers['x-ratelimit-remaining'])]);
      if (i === 3) {
        expect(res.body.error.code).toBe('RATE_LIMITED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(seen).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
    const premium = addUser(server, 'prem', { workspaceId: server.workspaceId, role: 'Viewer', tier: 'premium' });
    const res = await client(server, premium).get('/api/v1/workspaces');
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });

  test('the enterprise owner is unlimited', async () => {
    for (let i = 0; i < 5; i++) expect((await client(server, OWNER_TOKEN).get('/api/v1/workspaces')).status).toBe(200);
  });

  test('budgets are kept in the database: a restart does not give a spent budget back', async () => {
    const user = addUser(server, 'restarted', { workspaceId: server.workspaceId, role: 'Viewer' });
    const api = () => client(server, user);
    expect((await api().get('/api/v1/workspaces')).headers['x-ratelimit-remaining']).toBe('2');
    expect((await api().get('/api/v1/workspaces')).headers['x-ratelimit-remaining']).toBe('1');
    await server.close();
    server = await startServer({ dataDir: server.dataDir, env: { TASKSPACE_RATE_LIMIT_STANDARD: '3', TASKSPACE_RATE_LIMIT_PREMIUM: '5' } });
    const third = await api().get('/api/v1/workspaces');
    expect([third.status, third.headers['x-ratelimit-remaining']]).toEqual([200, '0']);
    expect((await api().get('/api/v1/workspaces')).status).toBe(429);
    // Written within a second while the server runs, not only at stop.
    const key = `u:${(await dbOf(server).get<{ id: string }>('SELECT id FROM users WHERE handle = ?', 'restarted'))!.id}`;
    await waitFor(
      async () => (await dbOf(server).value<number>('SELECT count FROM rate_counters WHERE key = ?', key)) === 4,
      'the counts to be stored',
    );
  });
});

describe('request bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('an empty body sent as application/json counts as no body; malformed JSON is still 400', async () => {
    const empty = await call(server.url, 'POST', `/api/v1/workspaces/${server.workspaceId}/folders`, {
      token: OWNER_TOKEN,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    const bad = await call(server.url, 'POST', `/api/v1/workspaces/${server.workspaceId}/folders`, {
      token: OWNER_TOKEN,
      rawBody: '{"name": "x",}',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.body.error.code).toBe('INVALID_JSON');
  });
});
