import { request } from 'undici';
import { addUser, call, client } from '../helpers/server';
import { automationServer, createAutomation } from '../automations/helpers';
import { waitFor } from '../helpers/wait';
import { dbOf } from '../helpers/db';
import type { TestServer } from '../helpers/server';

/**
 * One open `GET /api/v1/live` stream, with the events parsed as they arrive; `ended` tells when
 * the server ended it. A token is sent as a bearer token; `{cookie}` as the session cookie.
 */
async function openStream(server: TestServer, credential: string | { cookie: string }) {
  const headers = typeof credential === 'string' ? { authorization: `Bearer ${credential}` } : { cookie: credential.cookie };
  const res = await request(`${server.url}/api/v1/live`, { headers });
  const events: { event: string; data: any }[] = [];
  let ended = false;
  res.body.on('end', () => (ended = true));
  let buffer = '';
  res.body.setEncoding('utf8');
  res.body.on('data', (chunk: string) => {
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
  return { status: res.statusCode, headers: res.headers, events, ended: () => ended, close: () => res.body.destroy() };
}

const PASSWORD = 'owner password 1';

/**
 * Live updates (docs "Web app", "Live updates"): the stream names the projects whose tasks changed
 * and the runs that moved, only within the caller's workspaces, for changes made through the API
 * and by automation runs alike.
 */
describe('GET /api/v1/live', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  const streams: { close(): void }[] = [];

  beforeAll(async () => {
    server = await automationServer({ TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD });
    api = client(server, server.token);
    projectId = (
      await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: '# Live\n- first' })
    ).body.item.id;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await server.close();
  });

  test('a task change names its project on the streams of the workspace members, and on no one else’s', async () => {
    const mine = await openStream(server, server.token);
    const outsider = await openStream(server, addUser(server, 'outsider'));
    streams.push(mine, outsider);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toMatch(/^text\/event-stream/);
    await waitFor(() => mine.events.some((e) => e.event === 'ready'), 'the ready event');
    expect(mine.events.filter((e) => e.event !== 'ready')).toEqual([]);

    expect(
      (await api.post(`/api/v1/projects/${projectId}/tasks`, { tasks: [{ contentType: 'text/markdown', content: 'second' }] })).status,
    ).toBe(200);
    const change = await waitFor(
      () => mine.events.find((e) => e.event === 'project' && e.data.projectId === projectId),
      'the project event',
    );
    expect(change.data.version).toEqual(expect.any(Number));
    await waitFor(() => outsider.events.some((e) => e.event === 'ready'), 'the outsider stream to open');
    expect(outsider.events.filter((e) => e.event === 'project')).toEqual([]);
  });

  test('a run is reported as it starts, waits and ends, with its status; its task change names the project too', async () => {
    const live = await openStream(server, server.token);
    streams.push(live);
    await waitFor(() => live.events.some((e) => e.event === 'ready'), 'the ready event');
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Live run',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'pause', type: 'delay', seconds: 1 },
        { id: 'make', type: 'task.create', projectId, text: 'made by a run' },
      ],
    });
    expect((await call(server.url, 'POST', new URL(a.webhook.url).pathname, { body: {} })).status).toBe(200);
    await waitFor(
      () => live.events.some((e) => e.event === 'run' && e.data.status === 'completed'),
      'the run to be reported completed',
      10000,
    );
    const runEvents = live.events.filter((e) => e.event === 'run');
    expect(runEvents.every((e) => e.data.automationId === a.id)).toBe(true);
    expect(runEvents.map((e) => e.data.status)).toContain('waiting');
    expect(live.events.some((e) => e.event === 'project' && e.data.projectId === projectId)).toBe(true);
  });

  test('one reader serves every stream: a write costs the same few queries with 1 stream or 20 open', async () => {
    const hub = server.built.services.live;
    /** Makes one task change and waits until each of `open` streams has been told; the hub's work for it. */
    const oneWrite = async (open: Awaited<ReturnType<typeof openStream>>[]) => {
      const seen = open.map((s) => s.events.length);
      const before = { ...hub.stats };
      const res = await api.post(`/api/v1/projects/${projectId}/tasks`, { tasks: [{ contentType: 'text/markdown', content: 'counted' }] });
      expect(res.status).toBe(200);
      await waitFor(() => open.every((s, i) => s.events.slice(seen[i]).some((e) => e.event === 'project')), 'every stream to be told');
      return { looks: hub.stats.looks - before.looks, queries: hub.stats.queries - before.queries };
    };
    for (const s of streams.splice(0)) s.close(); // at most 20 streams per person
    await waitFor(() => hub.size === 0, 'the earlier streams to close');
    const one = [await openStream(server, server.token)];
    streams.push(...one);
    await waitFor(() => one[0]!.events.some((e) => e.event === 'ready'), 'the first stream');
    const alone = await oneWrite(one);
    const many = [...one];
    for (let i = 1; i < 20; i++) many.push(await openStream(server, server.token));
    streams.push(...many.slice(1));
    await waitFor(() => many.every((s) => s.events.some((e) => e.event === 'ready')), 'every stream to open');
    const crowded = await oneWrite(many);
    // A look reads memberships, projects and runs (plus, at most once a second, the credentials):
    // never a scan per stream. Looks are coalesced, so 20 streams do not make 20 looks either.
    for (const cost of [alone, crowded]) {
      expect(cost.looks).toBeGreaterThanOrEqual(1);
      expect(cost.queries).toBeLessThanOrEqual(5 * cost.looks);
    }
    expect(crowded.looks).toBeLessThan(many.length / 2);
    for (const s of many) s.close();
  });

  test('a stream opened with a session ends when the session is signed out', async () => {
    const signIn = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'owner', password: PASSWORD } });
    expect(signIn.status).toBe(200);
    const cookie = ([] as string[])
      .concat(signIn.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('taskspace_session='))!
      .split(';')[0]!;
    const live = await openStream(server, { cookie });
    streams.push(live);
    expect(live.status).toBe(200);
    await waitFor(() => live.events.some((e) => e.event === 'ready'), 'the ready event');
    const out = await call(server.url, 'POST', '/api/v1/auth/sign-out', { headers: { cookie, origin: server.url } });
    expect(out.status).toBe(200);
    await waitFor(() => live.ended(), 'the stream to end after sign-out', 5000);
    expect((await openStream(server, { cookie })).status).toBe(401);
  });

  test('a stream opened with a session gets no event once the session has ended: signed out here, or revoked elsewhere', async () => {
    /** A fresh session of the owner: its cookie and id. */
    const signIn = async () => {
      const res = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'owner', password: PASSWORD } });
      expect(res.status).toBe(200);
      const cookie = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('taskspace_session='))!
        .split(';')[0]!;
      return { cookie, sessionId: res.body.item.sessionId as string };
    };
    const write = async (content: string) =>
      expect((await api.post(`/api/v1/projects/${projectId}/tasks`, { tasks: [{ contentType: 'text/markdown', content }] })).status).toBe(
        200,
      );
    const ends = [
      // Signing out ends the session's streams before the answer.
      async (session: { cookie: string }) =>
        expect(
          (await call(server.url, 'POST', '/api/v1/auth/sign-out', { headers: { cookie: session.cookie, origin: server.url } })).status,
        ).toBe(200),
      // Revoked where this process is not told (another process, the admin CLI): the credential is checked before each write.
      async (session: { sessionId: string }) =>
        expect(await dbOf(server).run('UPDATE sessions SET revoked_at = ? WHERE id = ?', Date.now(), session.sessionId)).toBe(1),
    ];
    for (const end of ends) {
      const session = await signIn();
      const live = await openStream(server, { cookie: session.cookie });
      const watcher = await openStream(server, server.token);
      streams.push(live, watcher);
      await waitFor(() => live.events.some((e) => e.event === 'ready') && watcher.events.some((e) => e.event === 'ready'), 'both streams');
      // A change both streams hear, so the credential checks of the looks are recent ones.
      await write('heard by both');
      await waitFor(() => live.events.some((e) => e.event === 'project'), 'the first change');
      const before = live.events.length;
      await end(session);
      await write('after the session ended');
      await waitFor(() => watcher.events.filter((e) => e.event === 'project').length >= 2, 'the other stream to hear the change');
      await waitFor(() => live.ended(), 'the stream to end', 5000);
      expect(live.events.slice(before)).toEqual([]);
      watcher.close();
    }
  });

  test('a stream opened with a personal token ends when the token is revoked; other streams go on', async () => {
    const token = addUser(server, 'revoked-reader', { workspaceId: server.workspaceId, role: 'Viewer' });
    const live = await openStream(server, token);
    const other = await openStream(server, server.token);
    streams.push(live, other);
    await waitFor(
      () => live.events.some((e) => e.event === 'ready') && other.events.some((e) => e.event === 'ready'),
      'both streams to open',
    );
    const tokens = await call(server.url, 'GET', '/api/v1/tokens', { token });
    const id = tokens.body.items[0].id;
    expect((await call(server.url, 'DELETE', `/api/v1/tokens/${id}`, { token })).status).toBe(200);
    await waitFor(() => live.ended(), 'the stream to end after the revocation', 5000);
    expect(
      (await api.post(`/api/v1/projects/${projectId}/tasks`, { tasks: [{ contentType: 'text/markdown', content: 'still live' }] })).status,
    ).toBe(200);
    await waitFor(() => other.events.some((e) => e.event === 'project'), 'the other stream to go on');
    expect(other.ended()).toBe(false);
  });

  test('without a credential, or with a wrong one: 401 in the error envelope', async () => {
    for (const token of [null, 'tsk_wrong']) {
      const res = await call(server.url, 'GET', '/api/v1/live', { token });
      expect(res.status).toBe(401);
      expect(res.body.ok).toBe(false);
    }
  });

  test('the stream is listed in the OpenAPI document as text/event-stream', async () => {
    const doc = (await call(server.url, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/v1/live'].get.responses['200'].content)).toEqual(['text/event-stream']);
  });
});
