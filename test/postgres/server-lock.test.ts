import pg from 'pg';
import { PRESENCE_LOCK_CLASS, presenceKey } from '../../server/src/platform/db/postgres/presence';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { waitFor } from '../helpers/wait';
import { call, launchServer, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { receiver } from '../automations/helpers';

/**
 * One leader per PostgreSQL database (docs "Operations", "Roles"): a second server on the database
 * of a running one starts as a follower (it serves the API and executes its share of runs, and
 * `/healthz` says `leader: false`), and takes the lead over when the leader ends, however it ends
 * (a clean stop or kill -9), or when the leader stalls past its lease (`TASKSPACE_LEADER_LEASE_MS`).
 */
describe('the PostgreSQL server lock', () => {
  let database: TestDatabase;
  const running: TestServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const server of running) await server.close();
    await database.drop();
  });

  const health = async (url: string) => (await call(url, 'GET', '/healthz')).body as { ok: boolean; role: string; leader: boolean };

  test('a second server follows the first one and leads once it stops', async () => {
    const first = await startServer({ env: { DATABASE_URL: database.url } });
    expect(await health(first.url)).toEqual({ ok: true, role: 'all', leader: true });
    const second = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(second);
    expect(await health(second.url)).toEqual({ ok: true, role: 'all', leader: false });
    // Both serve the API on the same data.
    expect((await call(second.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
    expect((await call(first.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
    await first.close();
    await waitFor(async () => (await health(second.url)).leader, 'the follower to take the lead');
    await second.close();
    running.pop();
  });

  test('a follower whose connection is cut connects again and shows itself present again', async () => {
    const leader = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(leader);
    const follower = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(follower);
    const key = presenceKey(follower.built.services.workerId!);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const presence = async () =>
        (
          await db.query<{ pid: number }>(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted",
            [PRESENCE_LOCK_CLASS, key],
          )
        ).rows.map((r) => r.pid);
      const [before] = await presence();
      expect(before).toBeDefined();
      await db.query('SELECT pg_terminate_backend($1)', [before]);
      await waitFor(async () => {
        const now = await presence();
        return now.length === 1 && now[0] !== before;
      }, 'the follower to hold its presence lock on a new connection');
      expect(await health(follower.url)).toEqual({ ok: true, role: 'all', leader: false });
      await leader.close();
      running.splice(running.indexOf(leader), 1);
      await waitFor(async () => (await health(follower.url)).leader, 'the follower to take the lead');
    } finally {
      await db.end();
      await follower.close();
      running.splice(running.indexOf(follower), 1);
    }
  });

  test('a leader stopped (SIGSTOP) past its lease is replaced: the once-per-database work goes on; woken, the old leader stops without doing any', async () => {
    const rx = await receiver();
    const env = {
      DATABASE_URL: database.url,
      TASKSPACE_LEADER_LEASE_MS: '2000',
      TASKSPACE_WEBHOOKS_POLL_MS: '50',
      TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
      TASKSPACE_WEBHOOKS_SECRET_KEY: 'server-lock-test-key-0123456789abcd',
    };
    const launched = launchServer(tempDataDir(), env);
    try {
      const leaderUrl = await launched.listening;
      // The earlier test's servers have closed, but PostgreSQL may still be ending their sessions
      // (and releasing the lock): a server started meanwhile follows first, then leads.
      await waitFor(async () => (await health(leaderUrl)).leader, 'the first server to lead');
      const follower = await startServer({ env });
      running.push(follower);
      expect((await health(follower.url)).leader).toBe(false);
      const api = (method: string, path: string, body?: unknown) => call(follower.url, method, path, { token: OWNER_TOKEN, body });
      const workspaceId = (await api('GET', '/api/v1/workspaces')).body.items[0].id;
      expect((await api('POST', '/api/v2/webhooks', { targetUrl: `${rx.url}/hook`, events: ['project.created'] })).status).toBe(200);
      const ticking = (
        await api('POST', '/api/v1/automations', {
          workspaceId,
          name: 'Tick',
          trigger: { type: 'schedule', cron: '* * * * * *' },
          actions: [],
        })
      ).body.item;
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        const slots = async () =>
          (
            await db.query<{ trigger_json: string }>('SELECT trigger_json FROM automation_runs WHERE automation_id = $1', [ticking.id])
          ).rows.map((r) => Date.parse(JSON.parse(r.trigger_json).variables.scheduledAt as string));
        await waitFor(async () => (await slots()).length >= 2, 'the leader to fire schedule slots');
        launched.child.kill('SIGSTOP');
        const stoppedAt = Date.now();
        // The follower finds the leader's lease run out, ends its connections and leads.
        await waitFor(async () => (await health(follower.url)).leader, 'the follower to take the lead from the stalled leader', 15_000);
        expect(Date.now() - stoppedAt).toBeLessThan(12_000);
        // The leader's work goes on: schedule slots fire, the outbox is dispatched.
        await waitFor(async () => (await slots()).some((slot) => slot > stoppedAt + 2000), 'a schedule slot after the take-over');
        const projectId = (
          await api('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# After' })
        ).body.item.id;
        await waitFor(
          () => rx.received.some((r) => r.url === '/hook' && JSON.parse(r.body).payload.projectId === projectId),
          'the delivery of an event written after the take-over',
        );
        // Woken, the old leader finds its connection ended and stops (exit 1) before any leader work.
        launched.child.kill('SIGCONT');
        expect(await Promise.race([launched.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))])).toBe(1);
        expect(launched.output()).toContain('lost the PostgreSQL server lock');
        // Each slot fired once; each event delivered once.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const fired = await slots();
        expect(new Set(fired).size).toBe(fired.length);
        const deliveries = rx.received.filter((r) => r.url === '/hook').map((r) => r.headers['x-service-delivery']);
        expect(new Set(deliveries).size).toBe(deliveries.length);
      } finally {
        await db.end();
      }
      await follower.close();
      running.splice(running.indexOf(follower), 1);
    } finally {
      launched.child.kill('SIGCONT');
      await launched.stop('SIGKILL');
      await rx.close();
    }
  }, 60_000);

  test('three processes started together on an empty database: one creates the owner and only it prints the token', async () => {
    const fresh = await createTestDatabase();
    const env: Record<string, string> = { DATABASE_URL: fresh.url, TASKSPACE_BOOTSTRAP_TOKEN: '' };
    const launched = [0, 1, 2].map(() => launchServer(tempDataDir(), env));
    try {
      const urls = await Promise.all(launched.map((l) => l.listening));
      await waitFor(
        () => launched.some((l) => l.output().includes('Personal access token (shown once')),
        () => `one process to print the owner's token; they printed:\n${launched.map((l) => l.output()).join('\n---\n')}`,
      );
      const printed = launched.filter((l) => l.output().includes('Personal access token (shown once'));
      expect(printed).toHaveLength(1);
      expect(launched.filter((l) => l.output().includes('First start'))).toHaveLength(1);
      const token = /\n {2}(tsk_\S+)/.exec(printed[0]!.output())![1]!;
      for (const url of urls) expect((await call(url, 'GET', '/api/v1/workspaces', { token })).status).toBe(200);
      expect((await Promise.all(urls.map(health))).filter((h) => h.leader)).toHaveLength(1);
    } finally {
      for (const l of launched) await l.stop('SIGKILL');
      await fresh.drop();
    }
  }, 60_000);

  test('a leader killed with SIGKILL leaves no lock behind: the follower takes over', async () => {
    const child = await spawnServer(tempDataDir(), { DATABASE_URL: database.url });
    // As above: the earlier servers' sessions may still be ending.
    await waitFor(async () => (await health(child.url)).leader, 'the first server to lead');
    const follower = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(follower);
    expect((await health(follower.url)).leader).toBe(false);
    await child.stop('SIGKILL');
    // PostgreSQL ends the dead process's session when its socket closes, and the lock with it.
    await waitFor(async () => (await health(follower.url)).leader, 'the follower to take the lead after the leader was killed');
    expect((await call(follower.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
  });
});
