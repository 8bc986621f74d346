import { addUser, call, client, type TestServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, runsOf, runWithStatus, settledRuns, waitFor } from './helpers';

/** The management API: CRUD, versions, enable/disable, validation, roles, plan rule, runs. */
describe('automations API', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  const approvalFlow = (text: string) => ({
    name: `Approve ${text}`,
    trigger: { type: 'webhook' },
    actions: [
      { id: 'ok', type: 'approval' },
      { id: 'make', type: 'task.create', projectId, text },
    ],
  });

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'API');
  });
  afterAll(() => server.close());

  test('the definition schema is published', async () => {
    const res = await api.get('/api/v1/automations/schema');
    expect(res.status).toBe(200);
    expect(res.body.$schema).toContain('draft-07');
    expect(res.body.definitions.action).toBeDefined();
    expect(res.body.definitions.action.properties.type.enum).toEqual(
      expect.arrayContaining(['set', 'branch', 'approval', 'delay', 'http.request']),
    );
    const doc = await call(server.url, 'GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/automations', '/api/v1/automations/{automationId}/runs/{runId}/approve']),
    );
  });

  test('create, get, list, update (new version), enable/disable, delete', async () => {
    const created = await createAutomation(api, server.workspaceId, {
      name: 'CRUD',
      trigger: { type: 'task.added' },
      actions: [{ type: 'delay', minutes: 1 }],
    });
    expect(created).toMatchObject({ name: 'CRUD', enabled: true, version: 1, owner: { handle: 'owner' }, workspaceId: server.workspaceId });
    expect(created.actions).toEqual([{ type: 'delay', minutes: 1, id: 'step1' }]);
    expect(created.webhook).toBeUndefined();
    expect((await api.get(`/api/v1/automations/${created.id}`)).body.item).toEqual(created);
    const list = await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`);
    expect(list.body.items.map((a: any) => a.id)).toContain(created.id);

    const updated = await api.put(`/api/v1/automations/${created.id}`, {
      name: 'CRUD v2',
      description: 'second',
      trigger: { type: 'task.completed' },
      actions: [],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.item).toMatchObject({
      name: 'CRUD v2',
      description: 'second',
      version: 2,
      trigger: { type: 'task.completed' },
      actions: [],
    });

    const disabled = await api.post(`/api/v1/automations/${created.id}/disable`);
    expect(disabled.body.item.enabled).toBe(false);
    expect((await api.post(`/api/v1/automations/${created.id}/enable`)).body.item.enabled).toBe(true);
    expect((await api.delete(`/api/v1/automations/${created.id}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/v1/automations/${created.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/automations/${created.id}/runs`)).status).toBe(404);
  });

  test("a disabled automation's inbound URL answers 409 AUTOMATION_DISABLED and stores nothing; enabled again, it accepts", async () => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Pausable', trigger: { type: 'webhook' }, actions: [] });
    const path = new URL(a.webhook.url).pathname;
    const recorded = async () => (await runsOf(api, a.id)).length;
    await api.post(`/api/v1/automations/${a.id}/disable`);
    const refused = await call(server.url, 'POST', path, { body: { x: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('AUTOMATION_DISABLED');
    expect(await recorded()).toBe(0);
    await api.post(`/api/v1/automations/${a.id}/enable`);
    const accepted = await call(server.url, 'POST', path, { body: { x: 1 } });
    expect(accepted.status).toBe(200);
    // Recorded in the call's own transaction: the run is there when the reply is.
    expect(await recorded()).toBe(1);
  });

  test('runs?requestId= finds the run an inbound call started; a repeated Idempotency-Key maps to the first run', async () => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Traceable', trigger: { type: 'webhook' }, actions: [] });
    const path = new URL(a.webhook.url).pathname;
    const send = async (key: string) =>
      (await call(server.url, 'POST', path, { body: { lead: key }, headers: { 'idempotency-key': key } })).body.requestId as string;
    const first = await send('k1');
    const repeat = await send('k1');
    const other = await send('k2');
    const byRequest = (requestId: string) =>
      waitFor(async () => {
        const items = (await api.get(`/api/v1/automations/${a.id}/runs?requestId=${requestId}`)).body.items;
        return items.length === 1 ? items[0] : undefined;
      }, `the run of ${requestId}`);
    const [run1, run1again, run2] = [await byRequest(first), await byRequest(repeat), await byRequest(other)];
    expect(run1.id).toBe(run1again.id);
    expect(run2.id).not.toBe(run1.id);
    expect(run1.trigger).toMatchObject({ type: 'webhook', variables: { lead: 'k1' } });
    expect((await api.get(`/api/v1/automations/${a.id}/runs?requestId=unknown`)).body.items).toEqual([]);
  });

  test('invalid definitions are 400 with the field and reason; nothing is created', async () => {
    const before = (await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'x', trigger: { type: 'task.added' }, actions: [{ type: 'http.request', method: 'GET' }] }, 'actions[0].url', 'required'],
      [{ name: 'x', trigger: { type: 'sometimes' }, actions: [] }, 'trigger.type', 'invalid_value'],
      [{ name: 'x', trigger: { type: 'schedule', cron: 'nope' }, actions: [] }, 'trigger.cron', 'invalid_format'],
      [
        { name: 'x', trigger: { type: 'webhook' }, actions: [{ type: 'task.create', projectId: 'p', text: '{{ trigger.a | bogus }}' }] },
        'actions[0].text',
        'invalid_template',
      ],
      [
        {
          name: 'x',
          trigger: { type: 'webhook' },
          actions: [
            { id: 'a', type: 'delay', minutes: 1 },
            { id: 'a', type: 'delay', minutes: 2 },
          ],
        },
        'actions[1].id',
        'duplicate',
      ],
      [{ name: 'x', trigger: { type: 'webhook' }, actions: [], surprise: 1 }, 'surprise', 'unknown_field'],
    ];
    for (const [body, field, reason] of cases) {
      const res = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, ...body });
      expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        details: { field, reason },
      });
    }
    // A body without its type names both shapes it may take.
    const untyped = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'x',
      trigger: { type: 'webhook' },
      actions: [{ type: 'http.request', method: 'POST', url: 'https://example.org', body: { task: 1 } }],
    });
    expect(untyped.body.error.details).toEqual({ field: 'actions[0].body', reason: 'invalid_value' });
    expect(untyped.body.message).toBe(
      'actions[0].body must be one of: {type: "json", value} or {type: "form", fields} or {type: "raw", value} or {type: "multipart", parts}',
    );
    const missing = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, name: 'x', trigger: { type: 'webhook' } });
    expect(missing.body.error.details).toEqual({ field: 'actions', reason: 'required' });
    expect((await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items).toHaveLength(before);
  });

  test('roles: Owner manages; members read automations and runs (no webhook URL); outsiders see 404', async () => {
    const collaborator = client(server, addUser(server, 'colla', { workspaceId: server.workspaceId, role: 'Collaborator' }));
    const viewer = client(server, addUser(server, 'viewer', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const outsider = client(server, addUser(server, 'stranger'));
    const a = await createAutomation(api, server.workspaceId, { name: 'Roles', trigger: { type: 'webhook' }, actions: [] });
    expect(a.webhook.url).toContain('/webhooks/');
    const body = { workspaceId: server.workspaceId, name: 'x', trigger: { type: 'task.added' }, actions: [] };
    expect((await collaborator.post('/api/v1/automations', body)).status).toBe(403);
    expect((await collaborator.put(`/api/v1/automations/${a.id}`, { name: 'y', trigger: { type: 'webhook' }, actions: [] })).status).toBe(
      403,
    );
    expect((await collaborator.post(`/api/v1/automations/${a.id}/disable`)).status).toBe(403);
    expect((await collaborator.delete(`/api/v1/automations/${a.id}`)).status).toBe(403);
    expect((await collaborator.post(`/api/v1/automations/${a.id}/test`, {})).status).toBe(403);
    const seen = await viewer.get(`/api/v1/automations/${a.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.item.webhook).toBeUndefined();
    await api.post(`/api/v1/automations/${a.id}/test`, {});
    expect((await viewer.get(`/api/v1/automations/${a.id}/runs`)).body.items).toHaveLength(1);
    expect((await outsider.get(`/api/v1/automations/${a.id}`)).status).toBe(404);
    expect((await outsider.get(`/api/v1/automations/${a.id}/runs`)).status).toBe(404);
    expect((await outsider.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).status).toBe(404);
    expect((await outsider.post('/api/v1/automations', body)).status).toBe(404);
  });

  test('webhook triggers need a Pro-or-above verified account (402); other triggers do not', async () => {
    const free = client(
      server,
      addUser(server, 'freebie', { workspaceId: server.workspaceId, role: 'Owner', plan: 'free', verified: true }),
    );
    const res = await free.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Hook',
      trigger: { type: 'webhook' },
      actions: [],
    });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('PAYMENT_REQUIRED');
    const ok = await free.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Events',
      trigger: { type: 'task.added' },
      actions: [],
    });
    expect(ok.status).toBe(200);
    const switched = await free.put(`/api/v1/automations/${ok.body.item.id}`, { name: 'Hook', trigger: { type: 'webhook' }, actions: [] });
    expect(switched.status).toBe(402);
    expect((await free.get(`/api/v1/automations/${ok.body.item.id}`)).body.item.version).toBe(1);
  });

  test('switching the trigger away from webhook removes the URL; switching requireToken on returns a new token once', async () => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Hook', trigger: { type: 'webhook' }, actions: [] });
    const path = new URL(a.webhook.url).pathname;
    expect(a.webhook.requiresToken).toBe(false);
    const withToken = await api.put(`/api/v1/automations/${a.id}`, {
      name: 'Hook',
      trigger: { type: 'webhook', requireToken: true },
      actions: [],
    });
    expect(withToken.body.item.webhook).toMatchObject({ id: a.webhook.id, requiresToken: true, token: expect.stringMatching(/^whk_/) });
    expect((await call(server.url, 'POST', path, { body: {} })).status).toBe(401);
    expect(
      (await call(server.url, 'POST', path, { body: {}, headers: { authorization: `Bearer ${withToken.body.item.webhook.token}` } }))
        .status,
    ).toBe(200);
    const away = await api.put(`/api/v1/automations/${a.id}`, { name: 'Hook', trigger: { type: 'task.added' }, actions: [] });
    expect(away.body.item.webhook).toBeUndefined();
    expect((await call(server.url, 'POST', path, { body: {} })).status).toBe(404);
  });

  test('a run keeps its version; disabling cancels waiting runs; test runs work while disabled', async () => {
    const a = await createAutomation(api, server.workspaceId, approvalFlow('from v1'));
    const first = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    expect(first).toMatchObject({ status: 'waiting', version: 1 });
    await api.put(`/api/v1/automations/${a.id}`, approvalFlow('from v2'));
    const second = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    expect(second.version).toBe(2);
    const approved = await api.post(`/api/v1/automations/${a.id}/runs/${first.id}/approve`, {});
    expect(approved.status).toBe(200);
    const done = await runWithStatus(api, a.id, first.id, 'completed');
    expect(done.steps[1].output.text).toBe('from v1');

    const disabled = await api.post(`/api/v1/automations/${a.id}/disable`);
    expect(disabled.status).toBe(200);
    expect((await api.get(`/api/v1/automations/${a.id}/runs/${second.id}`)).body.item.status).toBe('cancelled');
    expect((await api.post(`/api/v1/automations/${a.id}/runs/${second.id}/approve`, {})).status).toBe(409);
    const third = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    expect(third).toMatchObject({ status: 'waiting', test: true, version: 2 });
    const rejected = await api.post(`/api/v1/automations/${a.id}/runs/${third.id}/reject`, { comment: 'no' });
    expect(rejected.body.item).toMatchObject({ status: 'rejected' });
    expect(rejected.body.item.steps[0].output).toMatchObject({ decision: 'rejected', decidedBy: 'owner', comment: 'no' });
    const runs = await runsOf(api, a.id);
    expect(runs.map((r: any) => r.id)).toEqual([third.id, second.id, first.id]);
    expect((await runsOf(api, a.id, '&status=cancelled')).map((r: any) => r.id)).toEqual([second.id]);
    expect((await runsOf(api, a.id, `&before=${third.id}`)).map((r: any) => r.id)).toEqual([second.id, first.id]);
    expect(runs[0].steps).toBeUndefined();
  });

  test('approvers: only listed members decide; the Owner cancels a waiting run', async () => {
    const dora = client(server, addUser(server, 'dora', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const participant = client(server, addUser(server, 'pat', { workspaceId: server.workspaceId, role: 'Participant' }));
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Dora decides',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval', approvers: ['@dora'] }],
    });
    const run = (await api.post(`/api/v1/automations/${a.id}/test`)).body.item; // no body at all
    expect((await participant.post(`/api/v1/automations/${a.id}/runs/${run.id}/approve`, {})).status).toBe(403);
    expect((await api.post(`/api/v1/automations/${a.id}/runs/${run.id}/approve`, {})).status).toBe(403);
    expect((await dora.post(`/api/v1/automations/${a.id}/runs/${run.id}/approve`)).body.item.status).toBe('completed');

    const other = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    expect((await participant.post(`/api/v1/automations/${a.id}/runs/${other.id}/cancel`)).status).toBe(403);
    expect((await api.post(`/api/v1/automations/${a.id}/runs/${other.id}/cancel`)).body.item.status).toBe('cancelled');
    const [, cancelled] = await settledRuns(api, a.id, 2);
    expect(cancelled.status).toBe('cancelled');
  });
});
