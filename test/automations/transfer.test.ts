import { addUser, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation } from './helpers';

/**
 * Export and import of automations (docs/automations.md "Export and import") over real HTTP:
 * the round trip into another workspace, what an export never carries, bad documents and roles.
 */
describe('automation export and import', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let otherWorkspace: string;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    const made = await api.post('/api/v1/workspaces', { name: 'Transfer target' });
    expect(made.status).toBe(200);
    otherWorkspace = made.body.item.id;
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/API_TOKEN`, { value: 'value-of-the-secret-1' })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  const definition = {
    name: 'Weekly report',
    description: 'Posts a report every Monday',
    trigger: { type: 'schedule', cron: '0 9 * * 1', timezone: 'Europe/Berlin' },
    actions: [
      {
        id: 'post',
        type: 'http.request',
        method: 'POST',
        url: 'https://reports.example.com/in',
        headers: { Authorization: 'Bearer {{ secrets.API_TOKEN }}' },
        body: { type: 'json', value: { at: '{{ trigger.scheduledAt }}' } },
      },
      { id: 'ok', type: 'approval', message: 'Sent {{ steps.post.status }}?', then: [{ id: 'wait', type: 'delay', minutes: 1 }] },
    ],
    timeoutMs: 600_000,
    concurrency: 2,
    retention: { days: 30 },
  };

  test('export → import into another workspace gives an equal definition, disabled, with a new id', async () => {
    const source = await createAutomation(api, server.workspaceId, definition);
    const exported = await api.get(`/api/v1/automations/${source.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="weekly-report.automation.json"');
    expect(exported.body).toEqual({ taskspaceAutomation: 1, exportedAt: expect.any(String), definition });
    expect(Number.isNaN(Date.parse(exported.body.exportedAt))).toBe(false);

    // The other workspace lacks the secret: refused as a create would be, the path in the import body.
    const missing = await api.post('/api/v1/automations/import', { workspaceId: otherWorkspace, document: exported.body });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    expect(missing.body.error.details).toMatchObject({
      field: expect.stringMatching(/^document\.definition\.actions\[0\]\.headers/),
      reason: 'unknown_secret',
    });

    expect((await api.put(`/api/v1/workspaces/${otherWorkspace}/secrets/API_TOKEN`, { value: 'another-value' })).status).toBe(200);
    const imported = await api.post('/api/v1/automations/import', { workspaceId: otherWorkspace, document: exported.body });
    expect(imported.status).toBe(200);
    expect(imported.body.item).toMatchObject({ ...definition, workspaceId: otherWorkspace, enabled: false, version: 1 });
    expect(imported.body.item.id).not.toBe(source.id);
    const again = await api.get(`/api/v1/automations/${imported.body.item.id}/export`);
    expect(again.body.definition).toEqual(exported.body.definition);

    // `enabled` and `name` may be given; the original is untouched.
    const copy = await api.post('/api/v1/automations/import', {
      workspaceId: server.workspaceId,
      document: exported.body,
      enabled: true,
      name: 'Weekly report (copy)',
    });
    expect(copy.body.item).toMatchObject({ name: 'Weekly report (copy)', enabled: true, workspaceId: server.workspaceId });
    expect((await api.get(`/api/v1/automations/${source.id}`)).body.item).toMatchObject({
      name: 'Weekly report',
      enabled: true,
      version: 1,
    });
  });

  test('an export carries no ids, owner, inbound URL, token or literal credential; a [redacted] value is refused on import', async () => {
    const hook = await createAutomation(api, server.workspaceId, {
      name: 'Hook with a key',
      trigger: { type: 'webhook', requireToken: true },
      actions: [
        {
          id: 'call',
          type: 'http.request',
          method: 'GET',
          url: 'https://api.example.com/x',
          headers: { Authorization: 'Bearer sk_live_literal_123', Accept: 'application/json' },
        },
      ],
    });
    expect(typeof hook.webhook.token).toBe('string');
    const exported = await api.get(`/api/v1/automations/${hook.id}/export`);
    expect(exported.status).toBe(200);
    const text = JSON.stringify(exported.body);
    for (const leak of [hook.id, hook.webhook.id, hook.webhook.token, server.workspaceId, 'sk_live_literal_123', 'value-of-the-secret-1'])
      expect(text).not.toContain(leak);
    expect(Object.keys(exported.body).sort()).toEqual(['definition', 'exportedAt', 'redacted', 'taskspaceAutomation']);
    expect(Object.keys(exported.body.definition).sort()).toEqual(['actions', 'name', 'trigger']);
    expect(exported.body.redacted).toEqual(['actions[0].headers.Authorization']);
    expect(exported.body.definition.actions[0].headers).toEqual({ Authorization: '[redacted]', Accept: 'application/json' });

    const refused = await api.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document: exported.body });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual({ field: 'document.definition.actions[0].headers.Authorization', reason: 'redacted' });

    // With the value replaced by a secret reference it imports, with its own inbound URL and token.
    const fixed = structuredClone(exported.body);
    fixed.definition.actions[0].headers.Authorization = 'Bearer {{ secrets.API_TOKEN }}';
    const imported = await api.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document: fixed });
    expect(imported.status).toBe(200);
    expect(imported.body.item.enabled).toBe(false);
    expect(imported.body.item.webhook.id).not.toBe(hook.webhook.id);
    expect(imported.body.item.webhook.token).toEqual(expect.any(String));
    expect(imported.body.item.webhook.token).not.toBe(hook.webhook.token);
  });

  test('bad documents are 400 VALIDATION_ERROR naming the field, and create nothing', async () => {
    const count = async () => (await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items.length;
    const before = await count();
    const good = { taskspaceAutomation: 1, definition: { name: 'x', trigger: { type: 'task.added' }, actions: [] } };
    const cases: [unknown, string, string][] = [
      [{ definition: good.definition }, 'document.taskspaceAutomation', 'required'],
      [{ ...good, taskspaceAutomation: 2 }, 'document.taskspaceAutomation', ''],
      [{ ...good, extra: true }, 'document.extra', 'unknown_field'],
      [{ taskspaceAutomation: 1 }, 'document.definition', 'required'],
      [{ ...good, definition: { trigger: { type: 'task.added' }, actions: [] } }, 'document.definition.name', 'required'],
      [{ ...good, definition: { ...good.definition, actions: [{ type: 'no.such.kind' }] } }, 'document.definition.actions[0]', ''],
      [
        { ...good, definition: { ...good.definition, trigger: { type: 'schedule', cron: 'every day' } } },
        'document.definition.trigger.cron',
        'invalid_format',
      ],
      [
        { ...good, definition: { ...good.definition, actions: [{ id: 'a', type: 'task.create', projectId: 'nope', text: 'x' }] } },
        'document.definition.actions[0].projectId',
        'not_found',
      ],
      ['a string', 'document', ''],
    ];
    for (const [document, field, reason] of cases) {
      const res = await api.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document });
      expect({ document, status: res.status, code: res.body.code }).toEqual({ document, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.error.details.field.startsWith(field)).toBe(true);
      if (reason) expect(res.body.error.details.reason).toBe(reason);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect((await api.post('/api/v1/automations/import', { workspaceId: server.workspaceId })).body.error.details).toEqual({
      field: 'document',
      reason: 'required',
    });
    expect(await count()).toBe(before);
  });

  test('roles: export as reading (any member), import as creating (Owner); outsiders 404', async () => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Roles', trigger: { type: 'task.added' }, actions: [] });
    const document = (await api.get(`/api/v1/automations/${a.id}/export`)).body;
    const viewer = client(server, addUser(server, 'tr-viewer', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const collaborator = client(server, addUser(server, 'tr-colla', { workspaceId: server.workspaceId, role: 'Collaborator' }));
    const outsider = client(server, addUser(server, 'tr-outsider'));

    expect((await viewer.get(`/api/v1/automations/${a.id}/export`)).body.definition).toEqual(document.definition);
    expect((await outsider.get(`/api/v1/automations/${a.id}/export`)).status).toBe(404);
    expect((await api.get('/api/v1/automations/no-such-automation/export')).status).toBe(404);
    expect((await client(server, null).get(`/api/v1/automations/${a.id}/export`)).status).toBe(401);

    expect((await viewer.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document })).status).toBe(403);
    expect((await collaborator.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document })).status).toBe(403);
    expect((await outsider.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document })).status).toBe(404);
    // A role check comes before the document's contents.
    const redacted = { ...document, definition: { ...document.definition, description: '[redacted]' } };
    expect((await collaborator.post('/api/v1/automations/import', { workspaceId: server.workspaceId, document: redacted })).status).toBe(
      403,
    );
  });
});
