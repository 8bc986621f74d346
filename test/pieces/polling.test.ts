import { dbOf } from '../helpers/db';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver, runsOf, waitFor } from '../automations/helpers';

/**
 * A piece's polling trigger (docs/integrations.md "Triggers"): WordPress "New Post" against a fake
 * site, polled every 200 ms. Enabling records where the site stands (the old post starts nothing);
 * a post published afterwards starts exactly one run, with the post's fields as trigger variables;
 * disabling calls the trigger's `onDisable` and forgets the enabling.
 */
describe('pieces: a polling trigger', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let site: Awaited<ReturnType<typeof receiver>>;
  // WordPress gives `date` in the site's time zone without an offset; the server's zone here is what dayjs reads it in.
  const local = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  const posts: { id: number; date: string; title: { rendered: string } }[] = [
    { id: 1, date: '2020-01-01T10:00:00', title: { rendered: 'Old post' } },
  ];

  beforeAll(async () => {
    server = await automationServer({ TASKSPACE_PIECES_POLL_MS: '200' });
    api = client(server, server.token);
    site = await receiver((r) => {
      if (r.url === '/') return { status: 200, body: '<html>blog</html>' };
      if (r.method === 'GET' && r.url.startsWith('/wp-json/wp/v2/posts'))
        return { status: 200, headers: { 'x-wp-totalpages': '1' }, body: posts };
      return { status: 404, body: {} };
    });
  });
  afterAll(async () => {
    await site.close();
    await server.close();
  });

  test('enabling starts nothing for old posts; a new post starts one run', async () => {
    const connection = (
      await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
        piece: 'wordpress',
        name: 'Blog',
        auth: { type: 'CUSTOM_AUTH', props: { username: 'ann', password: 'app-pass-1234', website_url: site.url } },
      })
    ).body.item;
    const { body } = await api.get('/api/v1/automations/kinds');
    expect(body.triggers.find((k: any) => k.type === 'wordpress.new_post')).toMatchObject({ title: 'New Post', category: 'WordPress' });
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'New posts',
      trigger: { type: 'wordpress.new_post', connectionId: connection.id },
      actions: [{ id: 'note', type: 'set', values: { title: '{{ trigger.title.rendered }}', id: '{{ trigger.id }}' } }],
    });
    const db = dbOf(server);
    await waitFor(
      async () => (await db.value('SELECT COUNT(*) AS n FROM piece_store WHERE scope = ?', `automation:${automation.id}`)) >= 2,
      'the trigger enabled (its state in the piece store)',
    );
    const polled = site.received.length;
    await waitFor(async () => site.received.length >= polled + 3, 'three polls after enabling');
    expect(await runsOf(api, automation.id)).toEqual([]);

    posts.unshift({ id: 2, date: local(Date.now() + 1000), title: { rendered: 'Fresh post' } });
    const [run] = await waitFor(async () => {
      const runs = await runsOf(api, automation.id);
      return runs.length > 0 && runs.every((r) => r.status === 'completed') && runs;
    }, 'a run for the new post');
    const detail = (await api.get(`/api/v1/automations/${automation.id}/runs/${run.id}`)).body.item;
    expect(detail.steps[0].output).toEqual({ title: 'Fresh post', id: 2 });
    const after = site.received.length;
    await waitFor(async () => site.received.length >= after + 3, 'three more polls');
    expect((await runsOf(api, automation.id)).length).toBe(1);

    // Disabling calls the trigger's onDisable and forgets that it was enabled (enabling again calls onEnable anew).
    const ours = async () =>
      Number(
        await db.value(
          "SELECT COUNT(*) AS n FROM piece_store WHERE scope = ? AND key IN ('__taskspace.trigger', '__taskspace.enabledFor')",
          `automation:${automation.id}`,
        ),
      );
    expect(await ours()).toBe(2);
    expect((await api.post(`/api/v1/automations/${automation.id}/disable`, {})).status).toBe(200);
    expect(await ours()).toBe(0);
    expect(Number(await db.value('SELECT COUNT(*) AS n FROM piece_store WHERE key = ?', '__taskspace.triggerError'))).toBe(0);

    // Deleting it removes what its piece kept (the newest post seen), after onDisable had it.
    const kept = async () => Number(await db.value('SELECT COUNT(*) AS n FROM piece_store WHERE scope = ?', `automation:${automation.id}`));
    expect(await kept()).toBeGreaterThan(0);
    expect((await api.post(`/api/v1/automations/${automation.id}/enable`, {})).status).toBe(200);
    await waitFor(async () => (await ours()) === 2, 'enabled again');
    expect((await api.delete(`/api/v1/automations/${automation.id}`)).status).toBe(200);
    expect(await kept()).toBe(0);
  }, 60000);
});
