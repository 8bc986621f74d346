import { request } from 'undici';
import { addUser, call, client } from '../helpers/server';
import { automationServer, createAutomation } from '../automations/helpers';
import { waitFor } from '../helpers/wait';
import type { TestServer } from '../helpers/server';

/** One open `GET /api/v1/live` stream, with the events parsed as they arrive. */
async function openStream(server: TestServer, token: string) {
  const res = await request(`${server.url}/api/v1/live`, { headers: { authorization: `Bearer ${token}` } });
  const events: { event: string; data: any }[] = [];
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
  return { status: res.statusCode, headers: res.headers, events, close: () => res.body.destroy() };
}

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
    server = await automationServer();
    api = client(server, server.token);
    projectId = (await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: '# Live\n- first' })).body.item.id;
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

    expect((await api.post(`/api/v1/projects/${projectId}/tasks`, { tasks: [{ contentType: 'text/markdown', content: 'second' }] })).status).toBe(200);
    const change = await waitFor(() => mine.events.find((e) => e.event === 'project' && e.data.projectId === projectId), 'the project event');
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
    await waitFor(() => live.events.some((e) => e.event === 'run' && e.data.status === 'completed'), 'the run to be reported completed', 10000);
    const runEvents = live.events.filter((e) => e.event === 'run');
    expect(runEvents.every((e) => e.data.automationId === a.id)).toBe(true);
    expect(runEvents.map((e) => e.data.status)).toContain('waiting');
    expect(live.events.some((e) => e.event === 'project' && e.data.projectId === projectId)).toBe(true);
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
