import { call, client, spawnServer, startServer, tempDataDir, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

/**
 * Group commit: concurrent task writes share one transaction, each in its own savepoint. A refused
 * write leaves the others of its group alone, and an acknowledged write survives a kill -9.
 */

const task = (content: string, taskId?: string) => ({ tasks: [{ contentType: 'text/plain', content, ...(taskId ? { taskId } : {}) }] });

describe('group commit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('concurrent writes land together; a refused one in the same group changes nothing and fails alone', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server);
    const missing = '00000000-0000-4000-8000-000000000000';
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 10 === 5
          ? api.post(`/api/v1/projects/${projectId}/tasks/`, task(`bad ${i}`, missing))
          : api.post(`/api/v1/projects/${projectId}/tasks/`, task(`good ${i}`)),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 30 }, (_, i) => (i % 10 === 5 ? 400 : 200)));
    expect(replies[5]!.body.error.details).toEqual({ field: 'tasks[0].taskId', reason: 'not_found' });
    const listed = (await api.get(`/api/v1/projects/${projectId}/tasks?limit=100`)).body.items.map((t: { text: string }) => t.text);
    expect(listed.sort()).toEqual(replies.flatMap((r, i) => (r.status === 200 ? [`good ${i}`] : [])).sort());
    // Writes of one group still raise their events, once each.
    const events = await dbOf(server).value(
      "SELECT count(*) AS n FROM events WHERE type = 'task.added' AND payload_json LIKE ?",
      `%${projectId}%`,
    );
    expect(events).toBe(27);
  });
});

describe('group commit durability', () => {
  test('every write acknowledged before a kill -9 is there after the restart', async () => {
    const dataDir = tempDataDir();
    const first = await spawnServer(dataDir);
    const api = client(first, OWNER_TOKEN);
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id as string;
    const created = await api.post(`/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Durable' });
    const projectId = created.body.item.id as string;
    const acknowledged: string[] = [];
    let stop = false;
    // Ten writers keep groups full; the kill lands while writes are in flight.
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const res = await call(first.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
          token: OWNER_TOKEN,
          body: task(`w${w}-${i}`),
        }).catch(() => undefined);
        if (res?.status === 200) acknowledged.push(res.body.item[0].id);
        else return;
      }
    };
    const writers = Array.from({ length: 10 }, (_, w) => writer(w));
    const killAt = Date.now() + 60_000;
    while (acknowledged.length < 300 && Date.now() < killAt) await new Promise((resolve) => setImmediate(resolve));
    await first.stop('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);

    const second = await spawnServer(dataDir);
    try {
      const ids = new Set<string>();
      let after: string | undefined;
      for (;;) {
        const page = (
          await call(second.url, 'GET', `/api/v1/projects/${projectId}/tasks?limit=500${after ? `&after=${after}` : ''}`, {
            token: OWNER_TOKEN,
          })
        ).body;
        for (const t of page.items) ids.add(t.id);
        if (page.items.length < 500) break;
        after = page.items[page.items.length - 1].id;
      }
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
