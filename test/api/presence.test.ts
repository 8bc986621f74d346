import { request } from 'undici';
import { addUser, client, spawnServer, startServer, type TestServer } from '../helpers/server';
import { onPostgres } from '../helpers/test-store';
import { waitFor } from '../helpers/wait';

/** The presence heartbeat of the expiry tests' server (ms): a row not renewed for 400 ms no longer counts. */
const HEARTBEAT_MS = 200;

interface LiveEvent {
  event: string;
  /** The event's JSON data; `presence` carries `{projectId, people}`. */
  data?: { projectId?: string; people?: { handle: string; displayName: string }[] };
}

/** One open `GET /api/v1/live` stream (of `base`, with `token`, watching `projectId`), its events parsed as they arrive. */
async function openStream(base: string, token: string, projectId?: string) {
  const query = projectId === undefined ? '' : `?projectId=${encodeURIComponent(projectId)}`;
  const res = await request(`${base}/api/v1/live${query}`, { headers: { authorization: `Bearer ${token}` } });
  const events: LiveEvent[] = [];
  let buffer = '';
  let body = '';
  res.body.setEncoding('utf8');
  res.body.on('data', (chunk: string) => {
    body += chunk;
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event) events.push({ event, data: data ? JSON.parse(data) : undefined });
    }
  });
  res.body.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => res.body.on('close', resolve));
  return {
    status: res.statusCode,
    events,
    /** The whole body, once the server ended it (an error envelope when the stream did not open). */
    body: () => ended.then(() => body),
    /** The handles of the last `presence` event, or undefined before the first. */
    present: () =>
      events
        .filter((e) => e.event === 'presence')
        .at(-1)
        ?.data?.people?.map((p) => p.handle),
    close: async () => {
      res.body.destroy();
      await ended;
    },
  };
}

type Stream = Awaited<ReturnType<typeof openStream>>;

/** Waits until `stream`'s last presence event lists exactly `handles`, in that order. */
async function waitForPresent(stream: Stream, handles: string[], timeoutMs?: number): Promise<void> {
  await waitFor(
    () => JSON.stringify(stream.present()) === JSON.stringify(handles),
    () => `presence ${JSON.stringify(handles)}; last seen ${JSON.stringify(stream.present())}`,
    timeoutMs,
  );
}

/**
 * Presence (docs "API", "Presence"): a live stream opened with `?projectId=` makes its person
 * present on the project while it is open; every stream watching the project is told who is
 * present when it opens and whenever that changes, across processes, and a stream whose process
 * stopped renewing it stops counting after two heartbeats.
 */
/**
 * A server with `env`, a project in its workspace, Viewer `ana` and `outsider` (no workspace);
 * `streams` are closed after each test, until nobody is present.
 */
function presenceServer(env: Record<string, string> = {}) {
  const ctx = {} as {
    server: TestServer;
    owner: ReturnType<typeof client>;
    anaToken: string;
    outsiderToken: string;
    projectId: string;
    streams: Stream[];
  };
  beforeAll(async () => {
    ctx.server = await startServer({ env });
    ctx.owner = client(ctx.server, ctx.server.token);
    ctx.anaToken = addUser(ctx.server, 'ana', { workspaceId: ctx.server.workspaceId, role: 'Viewer' });
    ctx.outsiderToken = addUser(ctx.server, 'outsider');
    ctx.projectId = (
      await ctx.owner.post(`/api/v1/workspaces/${ctx.server.workspaceId}/projects`, {
        contentType: 'text/markdown',
        content: '# Together\n- one',
      })
    ).body.item.id;
    ctx.streams = [];
  });
  afterEach(async () => {
    for (const s of ctx.streams.splice(0)) await s.close();
    await waitFor(
      async () => (await ctx.owner.get(`/api/v1/projects/${ctx.projectId}/presence`)).body.items?.length === 0,
      'nobody present',
    );
  });
  afterAll(() => ctx.server.close());
  /** Opens a stream of `token` on the project (on `base`, default the server) and expects it open. */
  const stream = async (token: string, base?: string) => {
    const s = await openStream(base ?? ctx.server.url, token, ctx.projectId);
    ctx.streams.push(s);
    expect(s.status).toBe(200);
    return s;
  };
  return { ctx, stream };
}

describe('presence on a project', () => {
  // The default heartbeat (15 s): whatever changes within a test comes from streams opening and closing.
  const { ctx, stream } = presenceServer();

  test('two people with the project open each see the other; when one leaves the other is told', async () => {
    const { server, owner, anaToken, projectId } = ctx;
    const ownerHandle = (await owner.get('/api/v1/me')).body.item.handle as string;
    const mine = await stream(server.token);
    await waitForPresent(mine, [ownerHandle]);
    expect(mine.events[0]!.event).toBe('ready');

    const ana = await stream(anaToken);
    await waitForPresent(ana, [ownerHandle, 'ana']);
    await waitForPresent(mine, [ownerHandle, 'ana']);
    const people = mine.events.filter((e) => e.event === 'presence').at(-1)!.data;
    expect(people).toEqual({
      projectId,
      people: [
        { handle: ownerHandle, displayName: expect.any(String) },
        { handle: 'ana', displayName: 'ana' },
      ],
    });
    // The same list, once, in the documented envelope; for a Viewer too.
    const listed = await client(server, anaToken).get(`/api/v1/projects/${projectId}/presence`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ ok: true, items: people?.people });

    // A second tab of the same person lists them once; closing one of the two keeps them present.
    const anaAgain = await stream(anaToken);
    await waitForPresent(anaAgain, [ownerHandle, 'ana']);
    await anaAgain.close();
    const told = mine.events.length;
    await ana.close();
    await waitForPresent(mine, [ownerHandle]);
    expect(mine.events.slice(told).filter((e) => e.event === 'presence')).toHaveLength(1);
    expect((await owner.get(`/api/v1/projects/${projectId}/presence`)).body.items.map((p: { handle: string }) => p.handle)).toEqual([
      ownerHandle,
    ]);
  });

  test('someone who may not read the project gets 404, as reading the project does; a stream without a project gets no presence', async () => {
    const { server, owner, anaToken, outsiderToken, projectId } = ctx;
    const outsider = await openStream(server.url, outsiderToken, projectId);
    expect(outsider.status).toBe(404);
    expect(JSON.parse(await outsider.body())).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const unknown = await openStream(server.url, server.token, 'no-such-project');
    expect(unknown.status).toBe(404);
    expect((await client(server, outsiderToken).get(`/api/v1/projects/${projectId}/presence`)).status).toBe(404);
    expect((await client(server, outsiderToken).get(`/api/v1/projects/${projectId}`)).status).toBe(404);
    expect((await client(server, null).get(`/api/v1/projects/${projectId}/presence`)).status).toBe(401);

    const plain = await openStream(server.url, server.token);
    ctx.streams.push(plain);
    await stream(anaToken);
    await waitFor(async () => (await owner.get(`/api/v1/projects/${projectId}/presence`)).body.items.length === 1, 'ana present');
    expect(plain.events.map((e) => e.event)).toEqual(['ready']);
  });
});

describe('presence after a process stops', () => {
  const { ctx, stream } = presenceServer({ TASKSPACE_PRESENCE_HEARTBEAT_MS: String(HEARTBEAT_MS) });

  test('a stream whose process stopped renewing it stops counting after two heartbeats, and its row is deleted', async () => {
    const { server, owner, projectId } = ctx;
    const ownerHandle = (await owner.get('/api/v1/me')).body.item.handle as string;
    const mine = await stream(server.token);
    await waitForPresent(mine, [ownerHandle]);
    // A row as another process writes it for ana's stream there; then that process dies: nobody renews it.
    const { store } = server.built.services;
    const anaId = (await store.run(store.sql.get<{ id: string }>("SELECT id FROM users WHERE handle = 'ana'")))!.id;
    const now = server.built.services.clock.now();
    await store.run(
      store.sql.run('INSERT INTO live_presence (id, project_id, user_id, opened_at, seen_at) VALUES (?, ?, ?, ?, ?)', [
        'stream-of-a-dead-process',
        projectId,
        anaId,
        now,
        now,
      ]),
    );
    await waitForPresent(mine, [ownerHandle, 'ana']);
    await waitForPresent(mine, [ownerHandle], 5000);
    const left = await store.run(store.sql.get("SELECT id FROM live_presence WHERE id = 'stream-of-a-dead-process'"));
    expect(left).toBeUndefined();
  });

  (onPostgres() ? test : test.skip)(
    'PostgreSQL: two processes of one database share presence, and a killed process’s streams stop counting',
    async () => {
      const { server, owner, anaToken } = ctx;
      const ownerHandle = (await owner.get('/api/v1/me')).body.item.handle as string;
      const other = await spawnServer(server.dataDir, { TASKSPACE_PRESENCE_HEARTBEAT_MS: String(HEARTBEAT_MS) });
      try {
        const mine = await stream(server.token);
        const ana = await stream(anaToken, other.url);
        await waitForPresent(ana, [ownerHandle, 'ana']);
        await waitForPresent(mine, [ownerHandle, 'ana']);
        await other.stop('SIGKILL');
        await waitForPresent(mine, [ownerHandle], 5000);
      } finally {
        await other.stop('SIGKILL');
      }
    },
    30000,
  );
});

describe('presence across a restart', () => {
  test('streams the server ends at shutdown keep their person present until the rows expire, as the browsers reconnect', async () => {
    // 3 s heartbeats: the rows count for 6 s, longer than a restart takes.
    const env = { TASKSPACE_PRESENCE_HEARTBEAT_MS: '3000' };
    let server = await startServer({ env });
    try {
      const owner = client(server, server.token);
      const anaToken = addUser(server, 'ana', { workspaceId: server.workspaceId, role: 'Viewer' });
      const projectId = (
        await owner.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: '# Restart' })
      ).body.item.id as string;
      const ana = await openStream(server.url, anaToken, projectId);
      await waitForPresent(ana, ['ana']);
      await server.close();
      await ana.close();

      server = await startServer({ env, dataDir: server.dataDir });
      const presence = () => client(server, server.token).get(`/api/v1/projects/${projectId}/presence`);
      expect((await presence()).body.items.map((p: { handle: string }) => p.handle)).toEqual(['ana']);
      await waitFor(async () => (await presence()).body.items.length === 0, 'ana to expire', 15000);
    } finally {
      await server.close();
    }
  }, 30000);
});
