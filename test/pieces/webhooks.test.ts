import { dbOf } from '../helpers/db';
import { addUser, client, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, issueTokensWithClient, signInCookie } from '../oauth/helpers';
import { automationServer, createAutomation, receiver, settledRuns, waitFor } from '../automations/helpers';

const ORDER_CREATED = 'woocommerce.$woocommerce_trigger_order_created';

/**
 * A piece's webhook trigger (docs/integrations.md "Triggers"): WooCommerce "Order Created"
 * against a fake shop. Saving the automation enabled calls the trigger's `onEnable`, which
 * registers the automation's piece hook URL with the shop (`POST /wp-json/wc/v3/webhooks`); the
 * shop's deliveries to that URL start one run per item the trigger's `run` returns (its ping is
 * the trigger's handshake, answered by `onHandshake`, and starts none); disabling calls `onDisable`, which deletes the shop's webhook, and the URL is 404
 * from then on; enabling again registers a new URL; deleting the automation unregisters it too;
 * saving another trigger swaps the registrations (a save that keeps the trigger keeps the URL).
 * A shop that refuses the delete does not block the disable (the failure is recorded). Whether
 * the trigger is registered is `GET /automations/{id}/trigger`: a refused registration says why.
 */
describe('pieces: a webhook trigger', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let shop: Awaited<ReturnType<typeof receiver>>;
  /** The shop's webhooks by id: where it delivers. */
  const hooks = new Map<number, string>();
  let nextHook = 70;
  let refuseDeletes = false;
  let refuseRegistrations = false;

  /** The shop delivers `body` to every registered webhook (as WooCommerce does); the answers. */
  async function deliver(body: unknown, contentType = 'application/json') {
    const answers = [];
    for (const url of hooks.values()) {
      // The URL is the server's public address; the test server listens where the links point.
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': contentType, 'x-wc-webhook-topic': 'order.created' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      answers.push({ status: res.status, body: (await res.json()) as any });
    }
    return answers;
  }

  beforeAll(async () => {
    server = await automationServer({ TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD });
    api = client(server, server.token);
    shop = await receiver((r) => {
      if (r.method === 'POST' && r.url === '/wp-json/wc/v3/webhooks') {
        if (refuseRegistrations)
          return {
            status: 401,
            body: { code: 'woocommerce_rest_cannot_create', message: 'Sorry, you are not allowed to create resources.' },
          };
        const { delivery_url, topic, name } = JSON.parse(r.body);
        const id = nextHook++;
        hooks.set(id, delivery_url);
        return { status: 201, body: { id, name, topic, delivery_url, status: 'active' } };
      }
      const del = /^\/wp-json\/wc\/v3\/webhooks\/(\d+)\?force=true$/.exec(r.url);
      if (r.method === 'DELETE' && del) {
        if (refuseDeletes) return { status: 500, body: { code: 'internal', message: 'the shop is down' } };
        hooks.delete(Number(del[1]));
        return { status: 200, body: { id: Number(del[1]) } };
      }
      return { status: 404, body: { code: 'rest_no_route' } };
    });
  });
  afterAll(async () => {
    await shop.close();
    await server.close();
  });

  const registrations = () => shop.received.filter((r) => r.method === 'POST');
  const deletes = () => shop.received.filter((r) => r.method === 'DELETE');

  async function connection(name: string) {
    const res = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'woocommerce',
      name,
      auth: { type: 'CUSTOM_AUTH', props: { baseUrl: shop.url, consumerKey: 'ck_test', consumerSecret: 'cs_secret_1234' } },
    });
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    return res.body.item;
  }

  test('enabling registers the URL; a delivery starts one run per item; disabling unregisters it and the URL is 404', async () => {
    const { body: kinds } = await api.get('/api/v1/automations/kinds');
    expect(kinds.triggers.find((k: any) => k.type === ORDER_CREATED)).toMatchObject({ title: 'Order Created', category: 'WooCommerce' });
    const conn = await connection('Shop');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'New orders',
      trigger: { type: ORDER_CREATED, connectionId: conn.id },
      actions: [{ id: 'note', type: 'set', values: { order: '{{ trigger.id }}', total: '{{ trigger.total }}' } }],
    });

    // onEnable ran before the save answered: the shop has the automation's URL, with the connection's credentials.
    expect(registrations()).toHaveLength(1);
    const registered = registrations()[0]!;
    expect(JSON.parse(registered.body)).toMatchObject({ topic: 'order.created', name: 'Order Created' });
    expect(registered.headers.authorization).toBe(`Basic ${Buffer.from('ck_test:cs_secret_1234').toString('base64')}`);
    const url = new URL(JSON.parse(registered.body).delivery_url);
    expect(url.pathname).toMatch(new RegExp(`^/webhooks/pieces/${automation.id}/[A-Za-z0-9_-]{32}$`));
    expect(url.origin).toBe(new URL(server.url).origin);

    // WooCommerce's ping when a webhook is made (a form with webhook_id) is the trigger's handshake:
    // its onHandshake answers it (echoing the id), and no run starts.
    expect(await deliver('webhook_id=70', 'application/x-www-form-urlencoded')).toEqual([{ status: 200, body: { webhook_id: '70' } }]);
    expect(await api.get(`/api/v1/automations/${automation.id}/runs`).then((r) => r.body.items)).toEqual([]);
    const [delivered] = await deliver({ id: 501, total: '12.00', status: 'processing' });
    expect(delivered).toEqual({ status: 200, body: { ok: true, received: 1, runIds: [expect.any(String)] } });
    const [run] = await settledRuns(api, automation.id, 1);
    expect(run.id).toBe(delivered!.body.runIds[0]);
    expect(run.status).toBe('completed');
    expect(run.steps[0].output).toEqual({ order: 501, total: '12.00' });

    // Another token on the same automation is not its URL.
    const wrong = await fetch(`${server.url}/webhooks/pieces/${automation.id}/${'x'.repeat(32)}`, { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

    // Disabling calls onDisable: the shop's webhook is deleted, and the URL is gone.
    expect((await api.post(`/api/v1/automations/${automation.id}/disable`, {})).status).toBe(200);
    expect(deletes().map((r) => r.url)).toEqual(['/wp-json/wc/v3/webhooks/70?force=true']);
    expect(hooks.size).toBe(0);
    const after = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":502}' });
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect((await settledRuns(api, automation.id, 1)).length).toBe(1);

    // Enabling again registers a new URL; the former one stays gone. Deleting the automation unregisters it.
    expect((await api.post(`/api/v1/automations/${automation.id}/enable`, {})).status).toBe(200);
    expect(registrations()).toHaveLength(2);
    const again = JSON.parse(registrations()[1]!.body).delivery_url;
    expect(again).not.toBe(url.toString());
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await deliver({ id: 503, total: '1.00' }))[0]).toMatchObject({ status: 200, body: { received: 1 } });
    expect((await api.delete(`/api/v1/automations/${automation.id}`)).status).toBe(200);
    expect(deletes().map((r) => r.url)).toEqual(['/wp-json/wc/v3/webhooks/70?force=true', '/wp-json/wc/v3/webhooks/71?force=true']);
    expect((await fetch(again, { method: 'POST', body: '{}' })).status).toBe(404);
  }, 60000);

  test('saving another trigger unregisters the former one and registers the new one; a rename keeps the URL', async () => {
    const conn = await connection('Shop 3');
    const actions = [{ id: 'note', type: 'set', values: { id: '{{ trigger.id }}' } }];
    const hookId = nextHook;
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Shop changes',
      trigger: { type: ORDER_CREATED, connectionId: conn.id },
      actions,
    });
    const first = JSON.parse(registrations().at(-1)!.body);
    const before = { posts: registrations().length, deletes: deletes().length };
    // Same trigger: nothing is called, the URL stays.
    const renamed = await api.put(`/api/v1/automations/${automation.id}`, {
      name: 'Shop changes v2',
      trigger: { type: ORDER_CREATED, connectionId: conn.id },
      actions,
    });
    expect(renamed.status).toBe(200);
    expect([registrations().length, deletes().length]).toEqual([before.posts, before.deletes]);
    const kept = await fetch(first.delivery_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":8}' });
    expect(await kept.json()).toMatchObject({ ok: true, received: 1 });
    const changed = await api.put(`/api/v1/automations/${automation.id}`, {
      name: 'Shop changes v3',
      trigger: { type: 'woocommerce.$woocommerce_trigger_product_created', connectionId: conn.id },
      actions,
    });
    expect(changed.status).toBe(200);
    expect(
      deletes()
        .slice(before.deletes)
        .map((r) => r.url),
    ).toEqual([`/wp-json/wc/v3/webhooks/${hookId}?force=true`]);
    expect(registrations()).toHaveLength(before.posts + 1);
    const second = JSON.parse(registrations().at(-1)!.body);
    expect(second.topic).toBe('product.created');
    expect((await fetch(first.delivery_url, { method: 'POST', body: '{}' })).status).toBe(404);
    const res = await fetch(second.delivery_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":9}' });
    expect(await res.json()).toMatchObject({ ok: true, received: 1 });
    expect((await api.delete(`/api/v1/automations/${automation.id}`)).status).toBe(200);
    expect(hooks.size).toBe(0);
  }, 60000);

  test('a service that refuses onDisable does not block the disable; the failure is recorded and the URL is 404', async () => {
    const conn = await connection('Shop 2');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Orders, shop down',
      trigger: { type: ORDER_CREATED, connectionId: conn.id },
      actions: [{ id: 'note', type: 'set', values: { order: '{{ trigger.id }}' } }],
    });
    const url = JSON.parse(registrations().at(-1)!.body).delivery_url;
    refuseDeletes = true;
    try {
      const disabled = await api.post(`/api/v1/automations/${automation.id}/disable`, {});
      expect(disabled.status).toBe(200);
      expect(disabled.body.item.enabled).toBe(false);
    } finally {
      refuseDeletes = false;
    }
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(404);
    const db = dbOf(server);
    const failure = await waitFor(
      async () =>
        db.value(
          'SELECT value_json AS value FROM piece_store WHERE scope = ? AND key = ?',
          `automation:${automation.id}`,
          '__taskspace.triggerError',
        ),
      'the failed onDisable recorded',
    );
    expect(JSON.parse(failure)).toMatchObject({ op: 'disable', message: expect.stringContaining('500') });
    expect(JSON.stringify(failure)).not.toContain('cs_secret_1234');
    hooks.clear();
  }, 60000);
  test("a registration the shop refuses is the trigger's status (failed, with the shop's answer); the next save registers it", async () => {
    const conn = await connection('Shop refusing');
    const viewer = client(server, addUser(server, 'vince', { workspaceId: server.workspaceId, role: 'Viewer' }));
    refuseRegistrations = true;
    let automation: any;
    try {
      automation = await createAutomation(api, server.workspaceId, {
        name: 'Orders, no rights',
        trigger: { type: ORDER_CREATED, connectionId: conn.id },
        actions: [{ id: 'note', type: 'set', values: { order: '{{ trigger.id }}' } }],
      });
    } finally {
      refuseRegistrations = false;
    }
    const failed = await viewer.get(`/api/v1/automations/${automation.id}/trigger`);
    expect([failed.status, failed.body.item]).toEqual([
      200,
      {
        type: ORDER_CREATED,
        source: 'piece-webhook',
        state: 'failed',
        error: { op: 'enable', message: expect.stringContaining('401'), at: expect.any(String) },
      },
    ]);
    expect(JSON.stringify(failed.body)).not.toContain('cs_secret_1234');

    // Disabled, then enabled again with the shop taking it: registered, the failure forgotten.
    expect((await api.post(`/api/v1/automations/${automation.id}/disable`, {})).status).toBe(200);
    expect((await api.get(`/api/v1/automations/${automation.id}/trigger`)).body.item.state).toBe('off');
    expect((await api.post(`/api/v1/automations/${automation.id}/enable`, {})).status).toBe(200);
    const enabled = (await api.get(`/api/v1/automations/${automation.id}/trigger`)).body.item;
    expect(enabled).toEqual({ type: ORDER_CREATED, source: 'piece-webhook', state: 'enabled', enabledAt: expect.any(String) });

    // A built-in trigger has nothing to register; another workspace's automation is 404.
    const plain = await createAutomation(api, server.workspaceId, { name: 'Plain', trigger: { type: 'webhook' }, actions: [] });
    expect((await api.get(`/api/v1/automations/${plain.id}/trigger`)).body.item).toEqual({
      type: 'webhook',
      source: 'inbound',
      state: 'built_in',
    });
    const stranger = client(server, addUser(server, 'sam'));
    expect((await stranger.get(`/api/v1/automations/${automation.id}/trigger`)).status).toBe(404);
    await api.delete(`/api/v1/automations/${automation.id}`);
    hooks.clear();
  }, 60000);

  test('a piece webhook trigger opens a public URL: refused to an OAuth token (403) and below Pro or unverified (402), nothing registered', async () => {
    const conn = await connection('Gated shop');
    const before = registrations().length;
    const body = (name: string) => ({
      workspaceId: server.workspaceId,
      name,
      trigger: { type: ORDER_CREATED, connectionId: conn.id },
      actions: [],
    });
    const { tokens } = await issueTokensWithClient(server, await signInCookie(server), 'read write');
    const app = client(server, tokens.access_token);
    const viaApp = await app.post('/api/v1/automations', body('Through an app'));
    expect(viaApp.status).toBe(403);
    expect(viaApp.body.error.details).toMatchObject({ reason: 'oauth_token_not_allowed' });
    for (const [handle, opts] of [
      ['free-owner', { plan: 'free', verified: true }],
      ['unverified-owner', { plan: 'pro', verified: false }],
    ] as const) {
      const owner = client(server, addUser(server, handle, { workspaceId: server.workspaceId, role: 'Owner', ...opts }));
      const res = await owner.post('/api/v1/automations', body(handle));
      expect([handle, res.status, res.body.error.code]).toEqual([handle, 402, 'PAYMENT_REQUIRED']);
      // Nor by switching an automation of another trigger to it.
      const plain = await createAutomation(owner, server.workspaceId, {
        name: `${handle} plain`,
        trigger: { type: 'task.added' },
        actions: [],
      });
      const switched = await owner.put(`/api/v1/automations/${plain.id}`, { ...body(handle), workspaceId: undefined });
      expect([handle, switched.status]).toEqual([handle, 402]);
    }
    expect(registrations()).toHaveLength(before);
    const listed = (await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items.map((a: any) => a.name);
    expect(listed).not.toEqual(expect.arrayContaining(['Through an app', 'free-owner', 'unverified-owner']));
  });
});
