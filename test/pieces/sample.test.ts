import path from 'node:path';
import { dbOf } from '../helpers/db';
import { addUser, client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, receiver } from '../automations/helpers';

const PROBE = path.join(__dirname, 'fixtures', 'sample-probe');
const ORDER_CREATED = 'woocommerce.$woocommerce_trigger_order_created';
const SECRET = 'cs_sample_secret_5678';

/**
 * A piece trigger's sample data (docs/integrations.md "Sample data"):
 * `POST /automations/kinds/{type}/sample` calls the trigger's own test with the step's connection
 * — WooCommerce "Order Created" reads the shop's recent orders — with a piece store that is
 * dropped afterwards; a trigger without a test answers the piece's `sampleData`. Not a trigger,
 * a Viewer, another piece's connection and a failing service are refused.
 */
describe('pieces: trigger sample data', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let shop: Awaited<ReturnType<typeof receiver>>;
  let failing = false;
  const ORDERS = [
    { id: 12, number: '12', status: 'processing', total: '9.50' },
    { id: 11, number: '11', status: 'completed', total: '20.00' },
  ];

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    server = await startServer({ dataDir, env: AUTOMATION_ENV });
    api = client(server, server.token);
    shop = await receiver((r) => {
      if (failing) return { status: 500, body: { code: 'internal', message: 'the shop is down' } };
      if (r.method === 'GET' && r.url.startsWith('/wp-json/wc/v3/orders')) return { status: 200, body: ORDERS };
      if (r.url === '/feed') return { status: 200, body: [{ id: 'a' }, { id: 'b' }] };
      return { status: 404, body: { code: 'rest_no_route' } };
    });
  });
  afterAll(async () => {
    await shop.close();
    await server.close();
  });

  async function connection(piece = 'woocommerce') {
    const auth =
      piece === 'woocommerce'
        ? { type: 'CUSTOM_AUTH', props: { baseUrl: shop.url, consumerKey: 'ck_sample', consumerSecret: SECRET } }
        : { type: 'CUSTOM_AUTH', props: { username: 'ann', password: 'app-pass-1234', website_url: shop.url } };
    const res = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, { piece, name: piece, auth });
    expect(res.status).toBe(200);
    return res.body.item.id as string;
  }

  const sample = (type: string, body: Record<string, unknown>, as = api) =>
    as.post(`/api/v1/automations/kinds/${encodeURIComponent(type)}/sample`, { workspaceId: server.workspaceId, ...body });

  test("a webhook trigger's test reads the service's recent items with the connection", async () => {
    const connectionId = await connection();
    const res = await sample(ORDER_CREATED, { connectionId });
    expect([res.status, res.body]).toEqual([200, { ok: true, item: { items: ORDERS, source: 'service' } }]);
    const asked = shop.received.at(-1)!;
    expect([asked.method, asked.url]).toEqual(['GET', '/wp-json/wc/v3/orders?per_page=10']);
    expect(asked.headers.authorization).toBe(`Basic ${Buffer.from(`ck_sample:${SECRET}`).toString('base64')}`);
    // Nothing was registered at the shop, nothing recorded for an automation.
    expect(shop.received.filter((r) => r.method !== 'GET')).toEqual([]);

    failing = true;
    try {
      const failed = await sample(ORDER_CREATED, { connectionId });
      expect([failed.status, failed.body.error?.code]).toEqual([502, 'UPSTREAM_ERROR']);
      expect(JSON.stringify(failed.body)).not.toContain(SECRET);
    } finally {
      failing = false;
    }
  });

  test("a trigger's test keeps nothing in the piece store; a trigger without a test answers its sampleData", async () => {
    const db = dbOf(server);
    const rows = () => db.value('SELECT COUNT(*) AS n FROM piece_store').then(Number);
    const before = await rows();
    for (let i = 0; i < 2; i++) {
      const res = await sample('taskspace-sample-probe.recent', { props: { feed: `${shop.url}/feed` } });
      // Each test starts from an empty store: what the previous one wrote is gone.
      expect([res.status, res.body.item]).toEqual([
        200,
        {
          items: [
            { id: 'a', testsBefore: 0 },
            { id: 'b', testsBefore: 0 },
          ],
          source: 'service',
        },
      ]);
    }
    expect(await rows()).toBe(before);
    const pushed = await sample('taskspace-sample-probe.pushed', {});
    expect([pushed.status, pushed.body.item]).toEqual([200, { items: [{ event: 'sample', id: 1 }], source: 'sample' }]);
  });

  test('an action, an unknown kind, a Viewer and a connection of another piece are refused', async () => {
    expect((await sample('woocommerce.Create Product', {})).status).toBe(404);
    expect((await sample('nothing.here', {})).status).toBe(404);
    const viewer = client(server, addUser(server, 'vera', { workspaceId: server.workspaceId, role: 'Viewer' }));
    expect((await sample(ORDER_CREATED, {}, viewer)).status).toBe(403);
    const wordpress = await connection('wordpress');
    const mismatch = await sample(ORDER_CREATED, { connectionId: wordpress });
    expect([mismatch.status, mismatch.body.error]).toEqual([400, expect.objectContaining({ code: 'VALIDATION_ERROR' })]);
    expect(JSON.stringify(mismatch.body.error)).toContain('connectionId');
    const extra = await sample(ORDER_CREATED, { nope: true });
    expect(extra.status).toBe(400);
  });
});
