import pg from 'pg';
import { onPostgres } from '../helpers/test-store';
import { call, OWNER_TOKEN, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { allTasks } from '../helpers/fixtures-tasks';

/**
 * A request whose database connection is ended under it (docs "API", errors: 503 UNAVAILABLE):
 * PostgreSQL ends a connection with 57P01 when a follower takes a stalled leader's place or the
 * database shuts down. The client gets 503 UNAVAILABLE with `Retry-After`, not a 500, and the
 * server goes on serving on its other connections.
 */
(onPostgres() ? describe : describe.skip)('a request whose database connection is ended gets 503 UNAVAILABLE (PostgreSQL)', () => {
  let server: TestServer;
  let holder: pg.Client;

  beforeAll(async () => {
    server = await startServer();
    holder = new pg.Client({ connectionString: server.built.services.config.databaseUrl! });
    await holder.connect();
  });
  afterAll(async () => {
    await holder.end();
    await server.close();
  });

  test('the create waiting on a lock loses its connection: 503 UNAVAILABLE, nothing written, the next create works', async () => {
    const api = (method: string, path: string, body?: unknown) => call(server.url, method, path, { token: OWNER_TOKEN, body });
    const projectId = (
      await api('POST', `/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: '# Held' })
    ).body.item.id as string;
    const texts = async () => (await allTasks(server, projectId)).map((t) => t.text);
    const before = await texts();

    // Another connection holds the tasks table: the create's statement waits on it.
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE');
    const pending = api('POST', `/api/v1/projects/${projectId}/tasks`, {
      tasks: [{ contentType: 'text/plain', content: 'Lost with its connection' }],
    });
    const waiting = async () =>
      (
        await holder.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        )
      ).rows;
    await waitFor(async () => (await waiting()).length > 0, 'the create to wait on the lock');
    for (const { pid } of await waiting()) await holder.query('SELECT pg_terminate_backend($1)', [pid]);
    const lost = await pending;
    await holder.query('ROLLBACK');

    expect([lost.status, lost.body]).toEqual([503, expect.anything()]);
    expect(lost.body).toMatchObject({ ok: false, code: 'UNAVAILABLE', error: { code: 'UNAVAILABLE' } });
    expect(lost.headers['retry-after']).toBe('1');
    expect(await texts()).toEqual(before);

    const next = await api('POST', `/api/v1/projects/${projectId}/tasks`, {
      tasks: [{ contentType: 'text/plain', content: 'Made after' }],
    });
    expect(next.status).toBe(200);
    expect(await texts()).toEqual([...before, 'Made after']);
  }, 60_000);
});
