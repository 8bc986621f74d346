import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { client, OWNER_TOKEN, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, waitFor } from '../automations/helpers';

const ORDER_CREATED = 'woocommerce.$woocommerce_trigger_order_created';

/**
 * A piece webhook trigger with two processes on one database (docs/integrations.md "Triggers"):
 * the process that saves an automation registers its trigger with the service (`onEnable`) while
 * the leader syncs every piece trigger at each poll interval. One sync at a time per automation
 * across processes: the leader, finding a sync of that automation under way elsewhere, waits for
 * it and then finds the trigger enabled, so the service gets one registration, and the disable
 * removes it (none is left behind at the service).
 */
describe('piece webhook triggers on several processes', () => {
  let database: TestDatabase;
  let leader: TestServer;
  let follower: TestServer;
  /** A process with `TASKSPACE_ROLE=api`: it holds no presence lock. */
  let apiOnly: TestServer;
  let shop: http.Server;
  let shopUrl = '';
  /** The shop's webhooks by id: where it delivers. */
  const hooks = new Map<number, string>();
  const registrations: string[] = [];
  let nextHook = 1;
  /** Requests the shop has not answered yet. */
  let inFlight = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The shop takes 400 ms to register a webhook: long enough for the leader's syncs (every 100 ms) to overlap.
    shop = http.createServer((req, res) => {
      inFlight++;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
          inFlight--;
        };
        const del = /^\/wp-json\/wc\/v3\/webhooks\/(\d+)\?force=true$/.exec(req.url ?? '');
        if (req.method === 'POST' && req.url === '/wp-json/wc/v3/webhooks') {
          const { delivery_url, topic, name } = JSON.parse(Buffer.concat(chunks).toString());
          registrations.push(delivery_url);
          setTimeout(() => {
            const id = nextHook++;
            hooks.set(id, delivery_url);
            answer(201, { id, name, topic, delivery_url, status: 'active' });
          }, 400);
        } else if (req.method === 'DELETE' && del) {
          hooks.delete(Number(del[1]));
          answer(200, { id: Number(del[1]) });
        } else answer(404, { code: 'rest_no_route' });
      });
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    const env = {
      ...AUTOMATION_ENV,
      DATABASE_URL: database.url,
      TASKSPACE_WEBHOOKS_SECRET_KEY: 'piece-hooks-key-0123456789abcdefghij',
      TASKSPACE_PIECES_POLL_MS: '100',
    };
    leader = await startServer({ env });
    follower = await startServer({ env });
    apiOnly = await startServer({ env: { ...env, TASKSPACE_ROLE: 'api' } });
  }, 60_000);
  afterAll(async () => {
    await apiOnly?.close();
    await follower?.close();
    await leader?.close();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
    await database.drop();
  });

  test.each([
    ['a follower', () => follower],
    ['an api process', () => apiOnly],
  ])(
    'saved on %s while the leader syncs: one registration at the service, removed on disable',
    async (who, saver) => {
      expect((await client(leader, leader.token).get('/healthz')).body.leader).toBe(true);
      const api = client(saver(), OWNER_TOKEN);
      const conn = await api.post(`/api/v1/workspaces/${leader.workspaceId}/connections`, {
        piece: 'woocommerce',
        name: `Shop (${who})`,
        auth: { type: 'CUSTOM_AUTH', props: { baseUrl: shopUrl, consumerKey: 'ck_test', consumerSecret: 'cs_secret_1234' } },
      });
      expect(conn.status).toBe(200);
      const automation = await createAutomation(api, leader.workspaceId, {
        name: 'New orders',
        trigger: { type: ORDER_CREATED, connectionId: conn.body.item.id },
        actions: [],
      });
      const mine = () => registrations.filter((url) => url.includes(`/webhooks/pieces/${automation.id}/`));
      expect(mine()).toHaveLength(1);
      expect((await api.get(`/api/v1/automations/${automation.id}/trigger`)).body.item).toMatchObject({ state: 'enabled' });
      // The leader's syncs go on; disabling (on the leader this time) unregisters what was registered.
      expect((await client(leader, leader.token).post(`/api/v1/automations/${automation.id}/disable`, {})).status).toBe(200);
      await waitFor(
        () => inFlight === 0 && hooks.size === 0,
        () => `the shop's webhooks to be removed: ${JSON.stringify([...hooks])}`,
      );
      expect(mine()).toHaveLength(1);
    },
    60_000,
  );
});
