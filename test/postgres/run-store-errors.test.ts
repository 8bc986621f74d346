import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { onPostgres } from '../helpers/test-store';
import { call, OWNER_TOKEN, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

/**
 * A store error while a run executes, outside its steps (docs "Operations", "Roles", "Automation
 * runs"): the run is released at once and tried again (here or by another process), resuming at
 * its first unfinished step, instead of sitting claimed and idle until its lease runs out.
 */
(onPostgres() ? describe : describe.skip)(
  'a run whose execution fails on a store error is released and tried again at once (PostgreSQL)',
  () => {
    let server: TestServer;
    let rx: http.Server;
    let rxUrl: string;
    /** Called before the receiver answers (may hold the answer back). */
    let beforeAnswer: (path: string) => Promise<void> = async () => undefined;
    const received: string[] = [];

    beforeAll(async () => {
      rx = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          received.push(request.url!);
          void beforeAnswer(request.url!).then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
        });
      });
      await new Promise<void>((resolve) => rx.listen(0, '127.0.0.1', resolve));
      rxUrl = `http://127.0.0.1:${(rx.address() as AddressInfo).port}`;
      // The default lease (30 s): a run left claimed would wait that long.
      server = await startServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_WEBHOOKS_POLL_MS: '100' } });
    });
    afterAll(async () => {
      await server.close();
      await new Promise((resolve) => rx.close(resolve));
    });

    test('the run row held by conflicting writers past every retry of its final write: the run completes soon after, its HTTP step sent once', async () => {
      const api = (method: string, path: string, body?: unknown) => call(server.url, method, path, { token: OWNER_TOKEN, body });
      const created = await api('POST', '/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Held',
        trigger: { type: 'webhook' },
        actions: [{ id: 'call', type: 'http.request', method: 'POST', url: `${rxUrl}/run/{{ run.id }}` }],
      });
      expect(created.status).toBe(200);
      const url = server.built.services.config.databaseUrl!;
      const hammers = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
      for (const h of hammers) await h.connect();
      let hammering = false;
      const loops: Promise<void>[] = [];
      let runId = '';
      // When the HTTP step arrives, two other connections take turns updating the run's row: the
      // run's serializable writes wait for it and fail with a serialization failure, every retry.
      beforeAnswer = async (path) => {
        beforeAnswer = async () => undefined;
        runId = path.slice('/run/'.length);
        hammering = true;
        let locked!: () => void;
        const holding = new Promise<void>((resolve) => (locked = resolve));
        for (const h of hammers) {
          loops.push(
            (async () => {
              while (hammering) {
                await h.query('BEGIN');
                await h.query('UPDATE automation_runs SET version = version WHERE id = $1', [runId]);
                locked();
                await h.query('SELECT pg_sleep(0.15)');
                await h.query('COMMIT');
              }
            })(),
          );
        }
        await holding;
      };
      void call(server.url, 'POST', new URL(created.body.item.webhook.url).pathname, { body: { n: 1 } }).catch(() => undefined);
      await waitFor(() => runId !== '', 'the HTTP step');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      hammering = false;
      await Promise.all(loops);
      for (const h of hammers) await h.end();
      const stopped = Date.now();
      const status = async () => (await api('GET', `/api/v1/automations/${created.body.item.id}/runs/${runId}`)).body.item?.status;
      await waitFor(async () => (await status()) === 'completed', 'the run to complete', 12_000);
      // Well within the 30 s lease.
      expect(Date.now() - stopped).toBeLessThan(12_000);
      expect(received.filter((p) => p === `/run/${runId}`)).toHaveLength(1);
    }, 40_000);
  },
);
