import { addUser, call, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, runWithStatus, settledRuns } from './helpers';

/**
 * Templates that forgive what is optional (docs "Automations", "Variables"): an optional webhook
 * field and an approval's optional comment, over the real server.
 */
describe('templates: optional values', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await automationServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('default, if and unless handle a missing webhook field and an approval without comment', async () => {
    const api = client(server, server.token);
    const ann = client(server, addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' }));
    const projectId = await newProject(server, 'Optional');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Optional fields',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'create',
          type: 'task.create',
          projectId,
          text: '{{ trigger.title }} [{{ trigger.priority | default: "normal" }}]{% unless trigger.owner %} unowned{% endunless %}',
        },
        {
          id: 'ok',
          type: 'approval',
          message: 'Accept {{ trigger.title }}?',
          then: [
            {
              id: 'note',
              type: 'task.update',
              projectId,
              taskId: '{{ steps.create.id }}',
              text: '{{ steps.create.text }}: {% if steps.ok.comment %}{{ steps.ok.comment }}{% else %}approved without comment{% endif %}',
            },
          ],
        },
      ],
    });
    const path = new URL(automation.webhook.url).pathname;
    expect((await call(server.url, 'POST', path, { body: { title: 'Ship it' } })).status).toBe(200);
    const [waiting] = await settledRuns(api, automation.id);
    expect(waiting).toMatchObject({ status: 'waiting', waitingFor: { kind: 'approval', stepId: 'ok' } });
    expect(waiting.steps.find((s: any) => s.id === 'create').output.text).toBe('Ship it [normal] unowned');

    expect((await ann.post(`/api/v1/automations/${automation.id}/runs/${waiting.id}/approve`, {})).status).toBe(200);
    await runWithStatus(api, automation.id, waiting.id, 'completed');
    expect((await allTasks(server, projectId)).map((t: any) => t.text)).toEqual(['Ship it [normal] unowned: approved without comment']);
  });

  test('a bare missing variable still fails the step, naming the variable', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Strict');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Strict',
      trigger: { type: 'webhook' },
      actions: [{ id: 'create', type: 'task.create', projectId, text: 'For {{ trigger.owner }}' }],
    });
    const path = new URL(automation.webhook.url).pathname;
    expect((await call(server.url, 'POST', path, { body: { title: 'x' } })).status).toBe(200);
    const [run] = await settledRuns(api, automation.id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE_ERROR', stepId: 'create' } });
    expect(run.error.message).toContain('trigger.owner');
    expect(await allTasks(server, projectId)).toEqual([]);
  });
});

describe('the set action', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await automationServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('computes typed values that later steps read as steps.<id>.<name>', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Set');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Totals',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'calc',
          type: 'set',
          values: {
            total: '{{ trigger.amount | times: 2 }}',
            tags: '{{ trigger.tags }}',
            label: 'Order {{ trigger.id }}',
            nested: { first: '{{ trigger.tags | first }}', fixed: 7 },
          },
        },
        {
          id: 'create',
          type: 'task.create',
          projectId,
          text: '{{ steps.calc.label }}: {{ steps.calc.total | plus: 1 }} {{ steps.calc.tags | join: "," }} {{ steps.calc.nested.first }}',
        },
      ],
    });
    const path = new URL(automation.webhook.url).pathname;
    expect((await call(server.url, 'POST', path, { body: { id: 'A1', amount: 20, tags: ['x', 'y'] } })).status).toBe(200);
    const [run] = await settledRuns(api, automation.id);
    expect(run.status).toBe('completed');
    expect(run.steps.find((s: any) => s.id === 'calc').output).toEqual({
      total: 40,
      tags: ['x', 'y'],
      label: 'Order A1',
      nested: { first: 'x', fixed: 7 },
    });
    expect((await allTasks(server, projectId)).map((t: any) => t.text)).toEqual(['Order A1: 41 x,y x']);
  });

  test('names must be identifiers and at least one value is needed (400, nothing saved)', async () => {
    const api = client(server, server.token);
    for (const values of [{ 'bad name': 'x' }, {}]) {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad set',
        trigger: { type: 'webhook' },
        actions: [{ id: 's', type: 'set', values }],
      });
      expect(res.status).toBe(400);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.details.field).toMatch(/^actions\[0\]\.values/);
      if ('bad name' in values) expect(res.body.error.message).toContain("'bad name'");
    }
    const list = await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`);
    expect(list.body.items.filter((a: any) => a.name === 'Bad set')).toEqual([]);
  });
});
