import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStore } from '../helpers/db';
import { client, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, waitFor } from '../automations/helpers';

const ORDER_CREATED = 'woocommerce.$woocommerce_trigger_order_created';

/**
 * A server killed with SIGKILL while a piece webhook trigger's `onEnable` is in flight leaves its
 * sync claim on the automation behind (docs/integrations.md "Triggers"). Restarted on the same
 * data, the server sees the claim's process is gone and registers the trigger at its first sync,
 * instead of waiting for the claim to run out (70 s).
 */
describe('pieces: a webhook trigger when its server is killed during onEnable', () => {
  let shop: http.Server;
  let shopUrl = '';
  /** Registration answers are held back (the shop hangs) while true. */
  let hang = true;
  /** The shop's webhooks by id: where it delivers. */
  const hooks = new Map<number, string>();
  const registrations: string[] = [];
  let server: TestServer | undefined;

  beforeAll(async () => {
    shop = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const del = /^\/wp-json\/wc\/v3\/webhooks\/(\d+)\?force=true$/.exec(req.url ?? '');
        if (req.method === 'POST' && req.url === '/wp-json/wc/v3/webhooks') {
          const { delivery_url, topic, name } = JSON.parse(Buffer.concat(chunks).toString());
          registrations.push(delivery_url);
          if (hang) return;
          const id = registrations.length;
          hooks.set(id, delivery_url);
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id, name, topic, delivery_url, status: 'active' }));
        } else if (req.method === 'DELETE' && del) {
          hooks.delete(Number(del[1]));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: Number(del[1]) }));
        } else {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"code":"rest_no_route"}');
        }
      });
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
    shop.closeAllConnections();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
  });

  test('the restarted server registers the trigger at once', async () => {
    const dataDir = tempDataDir();
    const env = { ...AUTOMATION_ENV, TASKSPACE_PIECES_POLL_MS: '100' };
    const child = await spawnServer(dataDir, env);
    const api = client(child, OWNER_TOKEN);
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id;
    const conn = await api.post(`/api/v1/workspaces/${workspaceId}/connections`, {
      piece: 'woocommerce',
      name: 'Shop',
      auth: { type: 'CUSTOM_AUTH', props: { baseUrl: shopUrl, consumerKey: 'ck_test', consumerSecret: 'cs_secret_1234' } },
    });
    expect(conn.status).toBe(200);
    // The save waits for onEnable, which waits for the shop: the server is killed meanwhile.
    const saving = api
      .post('/api/v1/automations', {
        workspaceId,
        name: 'New orders',
        trigger: { type: ORDER_CREATED, connectionId: conn.body.item.id },
        actions: [],
      })
      .catch((error: unknown) => error);
    await waitFor(() => registrations.length === 1, 'the shop to be asked to register the webhook');
    await child.stop('SIGKILL');
    expect(await saving).toBeInstanceOf(Error);
    const left = openStore(dataDir);
    let automationId: string;
    try {
      const claims = await left.db.all<{ scope: string }>("SELECT scope FROM piece_store WHERE key = '__taskspace.syncing'");
      expect(claims).toHaveLength(1);
      automationId = claims[0]!.scope.slice('automation:'.length);
    } finally {
      await left.close();
    }

    hang = false;
    server = await startServer({ dataDir, env });
    const restarted = client(server, server.token);
    // Registered once the shop has answered and the server has recorded it.
    const state = async () => (await restarted.get(`/api/v1/automations/${automationId}/trigger`)).body.item.state;
    await waitFor(async () => (await state()) === 'enabled', 'the restarted server to register the webhook', 15_000);
    expect(hooks.size).toBe(1);
    expect(registrations).toHaveLength(2);
    expect(new URL(registrations[1]!).origin).toBe(new URL(server.url).origin);
    expect((await restarted.post(`/api/v1/automations/${automationId}/disable`, {})).status).toBe(200);
    expect(hooks.size).toBe(0);
  }, 60_000);
});
