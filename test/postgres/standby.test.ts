import { loadConfig } from '../../server/src/config';
import { SERVER_LOCK_KEY } from '../../server/src/platform/db/postgres/server-lock';
import { createTestDatabase, withAdminClient, ADMIN_URL_VARIABLE, DEFAULT_ADMIN_URL, type TestDatabase } from '../helpers/postgres';
import { waitFor } from '../helpers/wait';
import {
  call,
  client,
  launchServer,
  OWNER_TOKEN,
  spawnServer,
  tempDataDir,
  type ChildServer,
  type LaunchedServer,
} from '../helpers/server';
import { startReceiver, type Receiver } from '../webhooks/receiver';

/**
 * Standby servers on one PostgreSQL database (docs "Operations", "Standby servers"): with
 * TASKSPACE_STANDBY=1 a server whose database is held waits without listening, and takes over
 * when the active server ends, kill -9 included, with every acknowledged write, the webhook
 * deliveries and the automation runs the dead one left. A server that loses its lock stops.
 */
describe('standby servers', () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const processes: { stop(signal?: NodeJS.Signals): Promise<void> }[] = [];
  const env = () => ({
    DATABASE_URL: database.url,
    TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
    TASKSPACE_WEBHOOKS_POLL_MS: '50',
    TASKSPACE_WEBHOOKS_RETRY_BASE_MS: '50',
    // Every server of a database seals and opens secrets with the same key.
    TASKSPACE_WEBHOOKS_SECRET_KEY: 'standby-test-key-0123456789abcdef',
    // A run the killed server had claimed is taken over when its lease runs out.
    TASKSPACE_RUN_LEASE_MS: '2000',
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await receiver.close();
    await database.drop();
  });

  function standby(): LaunchedServer {
    const launched = launchServer(tempDataDir(), { ...env(), TASKSPACE_STANDBY: '1' });
    processes.push(launched);
    return launched;
  }

  test('three processes: two standbys wait; killing the active one twice loses no acknowledged write, delivery or run', async () => {
    const active: ChildServer = await spawnServer(tempDataDir(), env());
    processes.push(active);
    const standbys = [standby(), standby()];
    await waitFor(() => standbys.every((s) => s.output().includes('Standing by: the PostgreSQL database')), 'both standbys to wait');
    expect(standbys.every((s) => !s.output().includes('listening on'))).toBe(true);

    const api = client({ url: active.url }, OWNER_TOKEN);
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id;
    expect((await api.post('/api/v2/webhooks', { targetUrl: `${receiver.url}/hook`, events: ['project.created'] })).status).toBe(200);
    const projects: string[] = [];
    const newProject = async (url: string, name: string) => {
      const res = await call(url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, {
        token: OWNER_TOKEN,
        body: { contentType: 'text/markdown', content: `# ${name}` },
      });
      expect(res.status).toBe(200);
      projects.push(res.body.item.id);
    };
    for (let i = 0; i < 5; i++) await newProject(active.url, `Before ${i}`);
    const projectId = (
      await api.post(`/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Failover' })
    ).body.item.id;
    const automation = (
      await api.post('/api/v1/automations', {
        workspaceId,
        name: 'Slow intake',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'wait', type: 'delay', seconds: 1 },
          { id: 'make', type: 'task.create', projectId, text: 'made after {{ trigger.n }}' },
        ],
      })
    ).body.item;
    const created: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api.post(`/api/v1/projects/${projectId}/tasks/`, {
        tasks: [{ contentType: 'text/plain', content: `before ${i}` }],
      });
      expect(res.status).toBe(200);
      created.push(...res.body.item.map((t: { id: string }) => t.id));
    }
    expect((await call(active.url, 'POST', new URL(automation.webhook.url).pathname, { body: { n: 1 } })).status).toBe(200);
    await active.stop('SIGKILL');

    // Exactly one standby takes over; the other goes on waiting.
    const first = await Promise.race(standbys.map((s) => s.listening.then((url) => ({ url, server: s }))));
    const second = standbys.find((s) => s !== first.server)!;
    expect(second.output()).not.toContain('listening on');
    const next = client({ url: first.url }, OWNER_TOKEN);
    const tasks = async (url: string) =>
      (await call(url, 'GET', `/api/v1/projects/${projectId}/tasks?limit=500`, { token: OWNER_TOKEN })).body.items as {
        id: string;
        text: string;
      }[];
    expect((await tasks(first.url)).map((t) => t.id)).toEqual(expect.arrayContaining(created));
    // The run the dead server left waiting ends in the new one, and makes its task once.
    await waitFor(
      async () => (await next.get(`/api/v1/automations/${automation.id}/runs`)).body.items[0]?.status === 'completed',
      'the run to complete',
    );
    expect((await tasks(first.url)).filter((t) => t.text === 'made after 1')).toHaveLength(1);
    const res = await next.post(`/api/v1/projects/${projectId}/tasks/`, {
      tasks: [{ contentType: 'text/plain', content: 'after the first failover' }],
    });
    created.push(res.body.item[0].id);
    await newProject(first.url, 'After the first failover');

    await first.server.stop('SIGKILL');
    const last = await second.listening;
    expect((await tasks(last)).map((t) => t.id)).toEqual(expect.arrayContaining(created));
    await newProject(last, 'After the second failover');
    // Every project.created event reached the receiver, whichever server sent it.
    const delivered = () => new Set(receiver.received.filter((r) => r.url === '/hook').map((r) => r.json.payload.projectId));
    await waitFor(() => projects.every((id) => delivered().has(id)), 'a delivery for every project');
    await second.stop();
  }, 90_000); // three server processes and two fail-overs: slow on a busy 2-core machine

  test('a server with another secret key warns; one that loses its lock stops at once; a standby needs PostgreSQL and a shared key', async () => {
    // Its data directory's own key file cannot open the signing secret sealed by the servers above.
    const active = await spawnServer(tempDataDir(), { DATABASE_URL: database.url });
    await waitFor(
      () => active.output().includes('taskspace: warning: the webhook secret key does not open the secrets stored in the database'),
      'the key warning',
    );
    processes.push(active);
    const exited = new Promise<number | null>((resolve) => active.child.once('exit', (code) => resolve(code)));
    const adminUrl = process.env[ADMIN_URL_VARIABLE] ?? DEFAULT_ADMIN_URL;
    const terminated = await withAdminClient(
      adminUrl,
      async (admin) =>
        (
          await admin.query(
            `SELECT pg_terminate_backend(l.pid) AS done FROM pg_locks l JOIN pg_database d ON d.oid = l.database
            WHERE l.locktype = 'advisory' AND l.objid = $1 AND l.granted AND d.datname = $2`,
            [SERVER_LOCK_KEY, database.name],
          )
        ).rows,
    );
    expect(terminated).toEqual([{ done: true }]);
    expect(await exited).toBe(1);
    expect(active.output()).toContain('taskspace: lost the PostgreSQL server lock');
    expect(() => loadConfig({ TASKSPACE_STANDBY: '1' })).toThrow('TASKSPACE_STANDBY=1 needs DATABASE_URL');
    expect(() => loadConfig({ TASKSPACE_STANDBY: '1', DATABASE_URL: database.url })).toThrow(
      'TASKSPACE_STANDBY=1 needs TASKSPACE_WEBHOOKS_SECRET_KEY',
    );
    expect(loadConfig({ ...env(), TASKSPACE_STANDBY: '1' }).standby).toBe(true);
    expect(loadConfig({ DATABASE_URL: database.url }).standby).toBe(false);
  });
});
