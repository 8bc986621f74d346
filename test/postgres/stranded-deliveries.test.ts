import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { onPostgres } from '../helpers/test-store';
import { call, OWNER_TOKEN, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

/**
 * Webhook deliveries never stay `sending` in a live process (docs "Operations", "Roles",
 * "Webhook deliveries"): a write of an attempt's outcome that fails is tried again until it lands,
 * and rows a live process holds `sending` without an attempt in flight go back to the queue. A row
 * stuck `sending` counts against its registration's limit of attempts at once, so with a limit of
 * one the registration would get nothing more.
 */
(onPostgres() ? describe : describe.skip)('webhook deliveries are never stranded in `sending` (PostgreSQL)', () => {
  let server: TestServer;
  let db: pg.Client;
  /** Deliveries received, by `X-Service-Delivery`. */
  const received: string[] = [];
  /** Called before the receiver answers a delivery (may hold the answer back). */
  let beforeAnswer: (deliveryId: string) => Promise<void> = async () => undefined;
  let status = 200;
  let rx: http.Server;
  let rxUrl: string;

  beforeAll(async () => {
    rx = http.createServer((request, response) => {
      const id = String(request.headers['x-service-delivery']);
      request.resume();
      request.on('end', () => {
        received.push(id);
        void beforeAnswer(id).then(() => response.writeHead(status, { 'content-type': 'application/json' }).end('{}'));
      });
    });
    await new Promise<void>((resolve) => rx.listen(0, '127.0.0.1', resolve));
    rxUrl = `http://127.0.0.1:${(rx.address() as AddressInfo).port}`;
    server = await startServer({
      env: {
        TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
        TASKSPACE_WEBHOOKS_POLL_MS: '50',
        TASKSPACE_WEBHOOKS_CONCURRENCY_PER_TARGET: '1',
        TASKSPACE_WEBHOOKS_RETRY_BASE_MS: '100',
      },
    });
    db = new pg.Client({ connectionString: server.built.services.config.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await server.close();
    await db.end();
    await new Promise((resolve) => rx.close(resolve));
  });

  const api = (method: string, path: string, body?: unknown) => call(server.url, method, path, { token: OWNER_TOKEN, body });
  const newProject = async (name: string) =>
    (await api('POST', `/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: `# ${name}` })).body
      .item.id as string;
  /** The target URL of the registration whose deliveries the test looks at. */
  let target = '';
  const deliveryOf = async (projectId: string) =>
    (
      await db.query<{ id: string; status: string }>(
        "SELECT d.id, d.status FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq JOIN webhooks w ON w.id = d.webhook_id WHERE w.url = $2 AND e.payload_json LIKE '%' || $1 || '%'",
        [projectId, target],
      )
    ).rows[0];

  test('an outcome write that fails (a conflicting writer holds the row past every retry) is tried again until it lands; the registration keeps getting deliveries', async () => {
    target = `${rxUrl}/hook`;
    const hook = await api('POST', '/api/v2/webhooks', { targetUrl: target, events: ['project.created'] });
    expect(hook.status).toBe(200);
    // Two other connections take turns updating the row while its outcome is written: each of the
    // writer's serializable attempts waits for the row, then fails with a serialization failure.
    const hammers = [
      new pg.Client({ connectionString: server.built.services.config.databaseUrl }),
      new pg.Client({ connectionString: server.built.services.config.databaseUrl }),
    ];
    for (const h of hammers) await h.connect();
    let hammering = false;
    const loops: Promise<void>[] = [];
    beforeAnswer = async (deliveryId) => {
      beforeAnswer = async () => undefined;
      hammering = true;
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      for (const h of hammers) {
        loops.push(
          (async () => {
            while (hammering) {
              await h.query('BEGIN');
              await h.query('UPDATE webhook_deliveries SET attempts = attempts WHERE id = $1', [deliveryId]);
              locked();
              await h.query('SELECT pg_sleep(0.15)');
              await h.query('COMMIT');
            }
          })(),
        );
      }
      await holding;
    };
    const first = await newProject('Stranded');
    await waitFor(
      async () => (await deliveryOf(first))?.id !== undefined && received.includes((await deliveryOf(first))!.id),
      'the first delivery to arrive',
    );
    const firstId = (await deliveryOf(first))!.id;
    // Long enough for every retry of the transaction to fail.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    hammering = false;
    await Promise.all(loops);
    for (const h of hammers) await h.end();
    await waitFor(async () => (await deliveryOf(first))?.status === 'succeeded', 'the outcome of the first delivery to be written', 15000);
    // The registration is not held at its limit of one by a stranded row.
    const second = await newProject('After');
    await waitFor(
      async () => {
        const row = await deliveryOf(second);
        return row !== undefined && received.includes(row.id);
      },
      'the next delivery to the same registration',
      15000,
    );
    expect(received.filter((id) => id === firstId)).toHaveLength(1);
  }, 40_000);

  test('a row this live process holds `sending` without sending it goes back to the queue and is delivered', async () => {
    target = `${rxUrl}/stale`;
    const hook = await api('POST', '/api/v2/webhooks', { targetUrl: target, events: ['project.created'] });
    expect(hook.status).toBe(200);
    // The receiver fails the first attempt: the row waits for its retry, pending.
    status = 500;
    const projectId = await newProject('Stale');
    await waitFor(async () => {
      const row = await deliveryOf(projectId);
      return row !== undefined && received.includes(row.id) && row.status === 'pending';
    }, 'the first attempt to fail');
    const { id } = (await deliveryOf(projectId))!;
    status = 200;
    // As a failure would leave it: claimed by this process, `sending`, but not in flight here.
    await db.query("UPDATE webhook_deliveries SET status = 'sending', claimed_by = $1, next_attempt_at = 0 WHERE id = $2", [
      server.built.services.workerId,
      id,
    ]);
    await waitFor(
      async () => (await deliveryOf(projectId))?.status === 'succeeded',
      'the stranded row to be put back and delivered',
      15000,
    );
    expect(received.filter((r) => r === id).length).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
