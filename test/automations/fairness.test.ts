import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runsOf, waitFor } from './helpers';

/** A server that answers every request after `delayMs`, noting the most requests it held at once per path prefix. */
async function slowServer(delayMs: number) {
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const key = req.url!.split('/')[1]!;
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    most.set(key, Math.max(most.get(key) ?? 0, inFlight.get(key)!));
    req.resume();
    setTimeout(() => {
      inFlight.set(key, inFlight.get(key)! - 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    most,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Fair scheduling and `concurrency` (docs/automations.md "Concurrency"). */
describe('fair run queue', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let slow: Awaited<ReturnType<typeof slowServer>>;
  beforeAll(async () => {
    // 8 slots: a flood of one automation may hold 6 of them.
    server = await automationServer({ TASKSPACE_ENGINE_CONCURRENCY: '8' });
    api = client(server, server.token);
    slow = await slowServer(400);
  });
  afterAll(async () => {
    await slow.close();
    await server.close();
  });

  const call = async (url: string) => {
    const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await res.body.dump();
    expect(res.statusCode).toBeLessThan(300);
  };

  test('a flood of one automation does not hold up another one', async () => {
    const flood = await createAutomation(api, server.workspaceId, {
      name: 'Flood',
      trigger: { type: 'webhook' },
      actions: [{ id: 'slow', type: 'http.request', method: 'GET', url: `${slow.url}/flood` }],
    });
    const quick = await createAutomation(api, server.workspaceId, {
      name: 'Quick',
      trigger: { type: 'webhook' },
      actions: [{ id: 'note', type: 'set', values: { a: 1 } }],
    });
    for (let i = 0; i < 40; i++) await call(flood.webhook.url);
    await call(quick.webhook.url);
    const [done] = await waitFor(async () => {
      const runs = await runsOf(api, quick.id);
      return runs[0]?.status === 'completed' && runs;
    }, 'the quick run to complete');
    // In one queue it would have waited for the 40 flood runs before it (5 rounds of 400 ms).
    const flooded = await runsOf(api, flood.id);
    expect(flooded.filter((r) => r.status !== 'completed').length).toBeGreaterThanOrEqual(20);
    expect(done.status).toBe('completed');
    // The flood held at most its share of the 8 slots.
    await waitFor(async () => (await runsOf(api, flood.id)).every((r) => r.status === 'completed'), 'the flood to finish', 30_000);
    expect(slow.most.get('flood')).toBe(6);
  });

  test('`concurrency` caps the runs of one automation executing at once', async () => {
    const capped = await createAutomation(api, server.workspaceId, {
      name: 'Two at a time',
      concurrency: 2,
      trigger: { type: 'webhook' },
      actions: [{ id: 'slow', type: 'http.request', method: 'GET', url: `${slow.url}/capped` }],
    });
    expect(capped.concurrency).toBe(2);
    for (let i = 0; i < 6; i++) await call(capped.webhook.url);
    await waitFor(
      async () => {
        const runs = await runsOf(api, capped.id);
        return runs.length === 6 && runs.every((r) => r.status === 'completed');
      },
      'the six runs to complete',
      30_000,
    );
    expect(slow.most.get('capped')).toBe(2);
    const refused = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      concurrency: 0,
      trigger: { type: 'webhook' },
      actions: [{ id: 'a', type: 'set', values: { a: 1 } }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('concurrency');
  });
});
