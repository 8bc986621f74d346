import path from 'node:path';
import { client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, receiver, settledRuns, waitFor } from '../automations/helpers';
import { OWNER_PASSWORD } from '../oauth/helpers';

const PROBE = path.join(__dirname, 'fixtures', 'handshake-probe');

/**
 * A webhook trigger's handshake (docs/integrations.md "Triggers"): a test piece declares
 * `handshakeConfiguration: {strategy: QUERY_PRESENT, paramName: "hub.challenge"}`, as Facebook's
 * webhooks want; the service's verification call to the hook URL is answered with the piece's
 * `onHandshake` answer (the challenge as text, its `x-*` header, never a cookie it sets) and starts
 * no run; an event without the parameter starts one run as before.
 */
describe('pieces: a webhook trigger with a handshake', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let registry: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    server = await startServer({ dataDir, env: { ...AUTOMATION_ENV, TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    api = client(server, server.token);
    registry = await receiver();
  });
  afterAll(async () => {
    await registry?.close();
    await server?.close();
  });

  test('the challenge is answered by onHandshake; an event starts one run', async () => {
    const kinds = (await api.get('/api/v1/automations/kinds')).body;
    expect(kinds.triggers.find((k: any) => k.type === 'taskspace-handshake-probe.challenge')).toBeDefined();
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Events',
      trigger: { type: 'taskspace-handshake-probe.challenge', props: { registry: `${registry.url}/subscribe` } },
      actions: [{ id: 'note', type: 'set', values: { event: '{{ trigger.event }}' } }],
    });
    await waitFor(async () => registry.received.length > 0, 'onEnable to tell the service the URL');
    const url = JSON.parse(registry.received[0]!.body).url as string;

    const challenge = await fetch(`${url}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=t`);
    expect([challenge.status, await challenge.text()]).toEqual([200, '1158201444']);
    expect(challenge.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(challenge.headers.get('x-hub-verified')).toBe('yes');
    expect(challenge.headers.get('set-cookie')).toBeNull();
    expect((await api.get(`/api/v1/automations/${automation.id}/runs`)).body.items).toEqual([]);

    const event = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'page.liked' }),
    });
    expect([event.status, (await event.json()) as unknown]).toEqual([200, { ok: true, received: 1, runIds: [expect.any(String)] }]);
    const [run] = await settledRuns(api, automation.id, 1);
    expect([run.status, run.steps[0].output]).toEqual(['completed', { event: 'page.liked' }]);
  });
});
