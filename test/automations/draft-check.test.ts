import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV } from './helpers';

/**
 * `POST /api/v1/automations/check` (docs "Automations", "Checked when saved"): the save-time checks
 * of a draft without a save, answered 200 with the problem a save would be refused for.
 */
describe('a draft is checked as a save would check it, without saving', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let amyToken: string;
  beforeAll(async () => {
    server = await startServer({ env: AUTOMATION_ENV });
    api = client(server, server.token);
    amyToken = addUser(server, 'amy', { workspaceId: server.workspaceId, role: 'Participant' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const definition = (actions: unknown[], trigger: Record<string, unknown> = { type: 'webhook' }) => ({ name: 'Draft', trigger, actions });
  const draft = (actions: unknown[], trigger?: Record<string, unknown>) => ({
    workspaceId: server.workspaceId,
    definition: definition(actions, trigger),
  });

  test('a valid draft passes, and nothing is saved', async () => {
    const res = await api.post('/api/v1/automations/check', draft([{ id: 'w', type: 'delay', minutes: 1 }]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, valid: true, problems: [] });
    expect((await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items).toEqual([]);
  });

  test('each kind of refusal comes back as a problem with the field and reason a save names', async () => {
    const cases: [unknown[], Record<string, unknown> | undefined, { field: string; reason: string }][] = [
      [
        [{ id: 'ok', type: 'approval', approvers: ['amy', 'nobody'] }],
        undefined,
        { field: 'actions[0].approvers[1]', reason: 'not_a_member' },
      ],
      [
        [{ id: 'v', type: 'set', values: { a: '{{ steps.nope.y }}' } }],
        undefined,
        { field: 'actions[0].values.a', reason: 'unknown_variable' },
      ],
      [[], { type: 'schedule', cron: '61 * * * *' }, { field: 'trigger.cron', reason: expect.any(String) }],
    ];
    for (const [actions, trigger, expected] of cases) {
      const checked = await api.post('/api/v1/automations/check', draft(actions, trigger));
      expect(checked.status).toBe(200);
      expect(checked.body.valid).toBe(false);
      expect(checked.body.problems).toEqual([{ ...expected, message: expect.any(String) }]);
      // The same draft saved is refused for the same field and reason.
      const saved = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, ...definition(actions, trigger) });
      expect(saved.status).toBe(400);
      expect(saved.body.error.details).toEqual(expect.objectContaining(expected));
      expect(saved.body.message).toContain(checked.body.problems[0].message.replace(/^.*?: /, ''));
    }
  });

  test('only the Owner may check; a draft of any shape is answered, a body without a workspace is 400', async () => {
    const amy = client(server, amyToken);
    const refused = await amy.post('/api/v1/automations/check', draft([]));
    expect(refused.status).toBe(403);
    expect(refused.body.ok).toBe(false);
    for (const [body, field] of [
      [{ name: 'x' }, 'trigger'],
      [{ ...definition([]), concurrency: 'two' }, 'concurrency'],
    ] as const) {
      const shaped = await api.post('/api/v1/automations/check', { workspaceId: server.workspaceId, definition: body });
      expect(shaped.status).toBe(200);
      expect(shaped.body.problems).toEqual([expect.objectContaining({ field })]);
    }
    const bad = await api.post('/api/v1/automations/check', { definition: { name: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const unknown = await api.post('/api/v1/automations/check', { ...draft([]), workspaceId: 'no-such-workspace' });
    expect(unknown.status).toBe(404);
  });
});
