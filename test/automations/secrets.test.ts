import { addUser, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver, runWithStatus } from './helpers';
import { dbOf } from '../helpers/db';

/** Workspace secrets: write-only values read as {{ secrets.NAME }}, masked in everything a run records (docs/automations.md "Secrets"). */
describe('workspace secrets', () => {
  let server: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let api: ReturnType<typeof client>;
  const path = () => `/api/v1/workspaces/${server.workspaceId}/secrets`;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    // Echoes what it received, so the step's output would carry the secret back.
    rx = await receiver((request) => ({
      status: 200,
      body: { sawKey: request.headers['x-service-key'], sawUrl: request.url, sawBody: request.body },
    }));
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  test('Owners set a secret; its value is never returned, and is stored sealed', async () => {
    const set = await api.put(`${path()}/API_KEY`, { value: 'sk_live_first_value' });
    expect(set.status).toBe(200);
    expect(set.body.item).toMatchObject({ name: 'API_KEY', created: true, updatedBy: 'owner', usedBy: [] });
    expect(JSON.stringify(set.body)).not.toContain('sk_live_first_value');
    const listed = await api.get(path());
    expect(listed.body.items.map((s: { name: string }) => s.name)).toEqual(['API_KEY']);
    expect(JSON.stringify(listed.body)).not.toContain('sk_live_first_value');
    const stored = JSON.stringify(await dbOf(server).all('SELECT * FROM workspace_secrets'));
    expect(stored).not.toContain('sk_live_first_value');

    expect((await api.put(`${path()}/lower_case`, { value: 'abcdef' })).status).toBe(400);
    const short = await api.put(`${path()}/SHORT`, { value: 'abc' });
    expect(short.status).toBe(400);
    expect(short.body.error.details.reason).toBe('too_short');
    const collaborator = client(server, addUser(server, 'cole', { workspaceId: server.workspaceId, role: 'Collaborator' }));
    expect((await collaborator.get(path())).status).toBe(403);
    expect((await collaborator.put(`${path()}/MINE`, { value: 'abcdef' })).status).toBe(403);
  });

  test('a run sends the real value; journals, outputs and the run show [secret NAME]; rotation applies from the next step', async () => {
    await api.put(`${path()}/API_KEY`, { value: 'sk_live_first_value' });
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Calls with a secret',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'first',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/hook?key={{ secrets.API_KEY }}`,
          headers: { 'X-Service-Key': '{{ secrets.API_KEY }}' },
          body: { type: 'json', value: { key: '{{ secrets.API_KEY }}', note: 'plain' } },
        },
        { id: 'wait', type: 'approval' },
        {
          id: 'second',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/again`,
          headers: { 'X-Service-Key': '{{ secrets.API_KEY }}' },
        },
      ],
    });
    const started = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    const waiting = await runWithStatus(api, automation.id, started.id, 'waiting');
    const first = rx.received.at(-1)!;
    expect(first.headers['x-service-key']).toBe('sk_live_first_value');
    expect(first.url).toBe('/hook?key=sk_live_first_value');
    expect(JSON.parse(first.body)).toEqual({ key: 'sk_live_first_value', note: 'plain' });

    const journal = JSON.stringify(waiting);
    expect(journal).not.toContain('sk_live_first_value');
    const step = waiting.steps.find((s: { id: string }) => s.id === 'first');
    expect(step.input.url).toBe(`${rx.url}/hook?key=[secret API_KEY]`);
    expect(step.input.headers['x-service-key']).toBe('[secret API_KEY]');
    expect(step.input.body).toEqual({ key: '[secret API_KEY]', note: 'plain' });
    expect(step.output.body.sawKey).toBe('[secret API_KEY]');

    // Rotate while the run waits: the next step reads the new value.
    expect((await api.put(`${path()}/API_KEY`, { value: 'sk_live_second_value' })).body.item.created).toBe(false);
    await api.post(`/api/v1/automations/${automation.id}/runs/${started.id}/approve`, {});
    const done = await runWithStatus(api, automation.id, started.id, 'completed');
    expect(rx.received.at(-1)!.headers['x-service-key']).toBe('sk_live_second_value');
    const all = JSON.stringify(done);
    expect(all).not.toContain('sk_live_second_value');
    expect(all).not.toContain('sk_live_first_value');
    expect(done.steps.find((s: { id: string }) => s.id === 'second').output.body.sawKey).toBe('[secret API_KEY]');

    // The definition keeps only the reference.
    const read = await api.get(`/api/v1/automations/${automation.id}`);
    expect(JSON.stringify(read.body)).toContain('{{ secrets.API_KEY }}');
    expect(JSON.stringify(read.body)).not.toContain('sk_live');
  });

  test('a failing step masks the value in its error and in the run error', async () => {
    await api.put(`${path()}/TARGET`, { value: 'not-absolute-secret-host-name-123' });
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Fails with a secret',
      trigger: { type: 'webhook' },
      actions: [{ id: 'fail', type: 'http.request', method: 'GET', url: '{{ secrets.TARGET }}', retry: { maxAttempts: 1 } }],
    });
    const started = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    const failed = await runWithStatus(api, automation.id, started.id, 'failed');
    expect(failed.error.message).toContain('[secret TARGET]');
    expect(failed.steps[0].error.message).toContain('[secret TARGET]');
    expect(JSON.stringify(failed)).not.toContain('secret-host-name-123');
  });

  test('unknown secrets are refused when saving; a secret in use by an enabled automation cannot be deleted', async () => {
    const unknown = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Reads a missing secret',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'call', type: 'http.request', method: 'GET', url: `${rx.url}/x`, headers: { 'X-Service-Key': "{{ secrets['NOT_SET'] }}" } },
      ],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.reason).toBe('unknown_secret');
    expect(unknown.body.message).toContain('NOT_SET');

    await api.put(`${path()}/IN_USE`, { value: 'in-use-value' });
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Uses IN_USE',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'call', type: 'http.request', method: 'GET', url: `${rx.url}/x`, headers: { 'X-Service-Key': '{{ secrets.IN_USE }}' } },
      ],
    });
    const listed = (await api.get(path())).body.items.find((s: { name: string }) => s.name === 'IN_USE');
    expect(listed.usedBy).toEqual([{ id: automation.id, name: 'Uses IN_USE', enabled: true }]);
    const refused = await api.delete(`${path()}/IN_USE`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({ reason: 'in_use', automations: [{ id: automation.id, name: 'Uses IN_USE' }] });
    expect((await api.post(`/api/v1/automations/${automation.id}/disable`, {})).status).toBe(200);
    expect((await api.delete(`${path()}/IN_USE`)).status).toBe(200);
    expect((await api.delete(`${path()}/IN_USE`)).status).toBe(404);
  });

  test("a secret named by an enabled webhook trigger's verify.secret cannot be deleted", async () => {
    await api.put(`${path()}/SIGNING_KEY`, { value: 'signing-key-value' });
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Verifies with SIGNING_KEY',
      trigger: { type: 'webhook', verify: { type: 'github', secret: 'SIGNING_KEY' } },
      actions: [{ id: 'note', type: 'set', values: { ok: 'yes' } }],
    });
    const listed = (await api.get(path())).body.items.find((s: { name: string }) => s.name === 'SIGNING_KEY');
    expect(listed.usedBy).toEqual([{ id: automation.id, name: 'Verifies with SIGNING_KEY', enabled: true }]);
    const refused = await api.delete(`${path()}/SIGNING_KEY`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({
      field: 'name',
      reason: 'in_use',
      automations: [{ id: automation.id, name: 'Verifies with SIGNING_KEY' }],
    });
    expect((await api.get(path())).body.items.map((s: { name: string }) => s.name)).toContain('SIGNING_KEY');
    expect((await api.post(`/api/v1/automations/${automation.id}/disable`, {})).status).toBe(200);
    expect((await api.delete(`${path()}/SIGNING_KEY`)).status).toBe(200);
  });
});
