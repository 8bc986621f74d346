import fs from 'node:fs';
import path from 'node:path';
import { call, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type ChildServer, type TestServer } from '../helpers/server';
import { sleep, startReceiver, waitFor, type Receiver } from './receiver';

/**
 * Durability across restarts: queued deliveries survive SIGKILL (and in-flight ones are re-sent),
 * and task.due fires each due time once, also for due times that passed while the server was down.
 */

const ROOT = path.resolve(__dirname, '../..');

describe('a SIGKILLed server loses no queued delivery', () => {
  let receiver: Receiver;
  let child: ChildServer | undefined;
  beforeAll(async () => {
    // spawnServer runs server/dist: `npm test` builds it first; alone, run `npx tsc -b server`.
    if (!fs.existsSync(path.join(ROOT, 'server/dist/modules/webhooks/delivery-worker.js'))) {
      throw new Error('server/dist is missing the webhook worker: run `npx tsc -b server` before this suite');
    }
    receiver = await startReceiver({ respond: () => 'hang' });
  });
  afterAll(async () => {
    await child?.stop('SIGKILL');
    await receiver.close();
  });

  test('deliveries queued or in flight at the kill all arrive after restart, in-flight ones with the same delivery id and the next attempt number', async () => {
    const dataDir = tempDataDir();
    const env = {
      TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
      TASKSPACE_WEBHOOKS_POLL_MS: '50',
      TASKSPACE_WEBHOOKS_CONCURRENCY: '4',
      TASKSPACE_WEBHOOKS_TIMEOUT_MS: '60000',
    };
    child = await spawnServer(dataDir, env);
    const api = (base: string) => ({
      post: (p: string, body: unknown) => call(base, 'POST', p, { token: OWNER_TOKEN, body }),
      get: (p: string) => call(base, 'GET', p, { token: OWNER_TOKEN }),
    });
    const first = api(child.url);
    const url = `${receiver.url}/durable`;
    expect((await first.post('/api/v2/webhooks', { targetUrl: url, events: ['project.created'] })).status).toBe(200);
    const workspaceId = (await first.get('/api/v1/workspaces')).body.items[0].id;
    const projectIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await first.post(`/api/v1/workspaces/${workspaceId}/projects`, {
        contentType: 'text/markdown',
        content: `# Durable ${i}`,
      });
      projectIds.push(res.body.item.id);
    }
    // Four attempts hang at the receiver (in flight); the other eight wait in the queue.
    await waitFor(() => receiver.received.length === 4, 'four hanging attempts');
    const inFlight = receiver.received.map((r) => r.headers['x-service-delivery']);
    await child.stop('SIGKILL');

    receiver.respond = () => ({ status: 204 });
    child = await spawnServer(dataDir, env);
    const acknowledged = () => new Set(receiver.received.filter((r) => r.status === 204).map((r) => r.json.payload.projectId));
    await waitFor(() => acknowledged().size === 12, 'all twelve deliveries', 30000);
    expect([...acknowledged()].sort()).toEqual([...projectIds].sort());
    const resent = receiver.received.filter((r) => r.status === 204 && inFlight.includes(r.headers['x-service-delivery']));
    expect(resent).toHaveLength(4);
    // Each is sent again as its next attempt (the claim counted the one the kill cut off).
    expect(resent.map((r) => r.headers['x-service-attempt'])).toEqual(['2', '2', '2', '2']);

    const log = await waitFor(async () => {
      const items = (await api(child!.url).get(`/api/v2/webhooks/${encodeURIComponent(url)}/deliveries?limit=50`)).body.items;
      return items.length === 12 && items.every((d: { status: string }) => d.status === 'succeeded') && items;
    }, 'the log to settle');
    // The cut-off attempts are logged as interrupted: no status, the reason in `error`.
    type Logged = { id: string; attemptCount: number; attempts: { number: number; statusCode: number | null; error: string | null }[] };
    for (const d of log as Logged[]) {
      if (!inFlight.includes(d.id)) {
        expect(d.attemptCount).toBe(1);
        continue;
      }
      expect(d.attemptCount).toBe(2);
      const attempts = [...d.attempts].sort((a, b) => a.number - b.number);
      expect(attempts.map((a) => [a.number, a.statusCode])).toEqual([
        [1, null],
        [2, 204],
      ]);
      expect(attempts[0]!.error).toMatch(/^interrupted: the sending process ended/);
    }
  }, 60000);
});

describe('task.due', () => {
  let receiver: Receiver;
  let server: TestServer | undefined;
  const env = { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_WEBHOOKS_POLL_MS: '50' };

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver.close();
  });

  /** `{date, time}` in UTC for `ms`, truncated to the second (the task date API's precision). */
  function utc(ms: number): { date: string; time: string } {
    const iso = new Date(ms).toISOString();
    return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
  }
  const dueOf = (ms: number) => Math.floor(ms / 1000) * 1000;
  const fired = (taskId: string) => receiver.received.filter((r) => r.json?.type === 'task.due' && r.json.payload.nodeId === taskId);

  test('fires each due time once, catches up after downtime, and fires again for a new date', async () => {
    const dataDir = tempDataDir();
    server = await startServer({ dataDir, env });
    const api = (s: TestServer) => ({
      put: (p: string, body: unknown) => call(s.url, 'PUT', p, { token: OWNER_TOKEN, body }),
      post: (p: string, body?: unknown) => call(s.url, 'POST', p, { token: OWNER_TOKEN, body }),
    });
    expect((await api(server).post('/api/v2/webhooks', { targetUrl: `${receiver.url}/due`, events: ['task.due'] })).status).toBe(200);
    const project = await api(server).post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/markdown',
      content: '# Deadlines\n\n- Arrives\n- During downtime\n- Long ago\n- An hour ago\n- Sync point\n- Done already',
    });
    const projectId = project.body.item.id;
    const tasks = (await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token: OWNER_TOKEN })).body.items as {
      id: string;
      text: string;
    }[];
    const id = (text: string) => tasks.find((t) => t.text === text)!.id;
    const setDue = (s: TestServer, taskId: string, ms: number) =>
      api(s).put(`/api/v1/projects/${projectId}/tasks/${taskId}/date`, { end: utc(ms) });

    // Completed tasks never fire; a date long past (beyond the 24 h grace) never fires; an hour ago fires at once.
    await api(server).post(`/api/v1/projects/${projectId}/tasks/${id('Done already')}/complete`);
    expect((await setDue(server, id('Done already'), Date.now() - 60000)).status).toBe(200);
    expect((await setDue(server, id('Long ago'), Date.now() - 2 * 86400000)).status).toBe(200);
    expect((await setDue(server, id('An hour ago'), Date.now() - 3600000)).status).toBe(200);
    const arrives = Date.now() + 2000;
    expect((await setDue(server, id('Arrives'), arrives)).status).toBe(200);
    await waitFor(() => fired(id('An hour ago')).length === 1 && fired(id('Arrives')).length === 1, 'the first two task.due deliveries');

    const [delivery] = fired(id('Arrives'));
    expect(delivery!.json.payload).toEqual({
      projectId,
      projectTitle: 'Deadlines',
      projectLink: `${server.url}/projects/${projectId}`,
      nodeId: id('Arrives'),
      nodeText: 'Arrives',
      dueAt: new Date(dueOf(arrives)).toISOString(),
      endDate: utc(arrives).date,
      assignees: [],
      triggerTime: expect.any(String),
    });
    expect(Date.parse(delivery!.json.payload.triggerTime)).toBeGreaterThanOrEqual(dueOf(arrives));

    // A due time that passes while the server is down fires after the restart. It is rounded down
    // to the second, so 5 s leaves at least 4 s for the close, even on a loaded machine.
    const during = Date.now() + 5000;
    expect((await setDue(server, id('During downtime'), during)).status).toBe(200);
    await server.close();
    await sleep(Math.max(0, dueOf(during) - Date.now()) + 300);
    expect(fired(id('During downtime'))).toHaveLength(0);
    server = await startServer({ dataDir, env });
    await waitFor(() => fired(id('During downtime')).length === 1, 'the catch-up delivery');

    // A sync point after the restart: once it has fired, every earlier due time has been scanned.
    expect((await setDue(server, id('Sync point'), Date.now() + 1000)).status).toBe(200);
    await waitFor(() => fired(id('Sync point')).length === 1, 'the sync point');
    const counts = Object.fromEntries(tasks.map((t) => [t.text, fired(t.id).length]));
    expect(counts).toEqual({ Arrives: 1, 'During downtime': 1, 'Long ago': 0, 'An hour ago': 1, 'Sync point': 1, 'Done already': 0 });

    // A changed date fires again, for the new time.
    expect((await setDue(server, id('Arrives'), Date.now() + 1000)).status).toBe(200);
    await waitFor(() => fired(id('Arrives')).length === 2, 'the second firing for the new date');
  }, 45000);
});
