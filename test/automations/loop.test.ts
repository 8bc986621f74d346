import { addUser, call, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runWithStatus, settledRuns, waitFor } from './helpers';

/** The loop action over the real server (docs "Automations", "Actions": loop). */
describe('loop', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await automationServer();
  });
  afterAll(() => server.close());

  const inbound = async (automation: any, body: unknown) => {
    const res = await call(server.url, 'POST', new URL(automation.webhook.url).pathname, { body });
    expect(res.status).toBe(200);
  };

  test('runs its actions once per item with loop.item and loop.index; each iteration journalled on its own', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Loop');
    const rx = await receiver(() => ({ status: 200, body: { seen: true } }));
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Per line',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'each',
          type: 'loop',
          items: '{{ trigger.lines }}',
          actions: [
            { id: 'make', type: 'task.create', projectId, text: '{{ loop.index }}/{{ loop.count }}: {{ loop.item.name }}' },
            {
              id: 'tell',
              type: 'http.request',
              method: 'POST',
              url: `${rx.url}/line`,
              body: { type: 'json', value: { task: '{{ steps.make.id }}', qty: '{{ loop.item.qty }}' } },
            },
          ],
        },
        { id: 'sum', type: 'set', values: { made: '{{ steps.each.count }}', first: '{{ steps.each.iterations[0].make.text }}' } },
      ],
    });
    await inbound(automation, {
      lines: [
        { name: 'apples', qty: 3 },
        { name: 'pears', qty: 1 },
        { name: 'plums', qty: 7 },
      ],
    });
    const [run] = await settledRuns(api, automation.id);
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => s.id)).toEqual([
      'each',
      'each[0].make',
      'each[0].tell',
      'each[1].make',
      'each[1].tell',
      'each[2].make',
      'each[2].tell',
      'sum',
    ]);
    const texts = (await allTasks(server, projectId)).map((t: any) => t.text);
    expect(texts).toEqual(['0/3: apples', '1/3: pears', '2/3: plums']);
    expect(rx.received.map((r) => JSON.parse(r.body).qty)).toEqual([3, 1, 7]);
    const each = run.steps.find((s: any) => s.id === 'each');
    expect(each.output.count).toBe(3);
    expect(each.output.iterations.map((i: any) => i.make.text)).toEqual(texts);
    expect(run.steps.find((s: any) => s.id === 'sum').output).toEqual({ made: 3, first: '0/3: apples' });
    await rx.close();
  });

  test('an approval inside an iteration is decided over the API and the loop goes on', async () => {
    const api = client(server, server.token);
    const ann = client(server, addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' }));
    const projectId = await newProject(server, 'Approvals in a loop');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Approve each',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'each',
          type: 'loop',
          items: ['a', 'b'],
          actions: [
            {
              id: 'ok',
              type: 'approval',
              message: 'Make {{ loop.item }}?',
              then: [{ id: 'make', type: 'task.create', projectId, text: '{{ loop.item }} by {{ steps.ok.decidedBy }}' }],
            },
          ],
        },
      ],
    });
    await inbound(automation, {});
    const [run] = await settledRuns(api, automation.id);
    expect(run).toMatchObject({ status: 'waiting', waitingFor: { kind: 'approval', stepId: 'each[0].ok' } });
    expect((await ann.post(`/api/v1/automations/${automation.id}/runs/${run.id}/approve`, {})).status).toBe(200);
    await waitFor(
      async () => (await api.get(`/api/v1/automations/${automation.id}/runs/${run.id}`)).body.item.waitingFor?.stepId === 'each[1].ok',
      'the second approval',
    );
    expect((await api.post(`/api/v1/automations/${automation.id}/runs/${run.id}/approve`, {})).status).toBe(200);
    await runWithStatus(api, automation.id, run.id, 'completed');
    expect((await allTasks(server, projectId)).map((t: any) => t.text)).toEqual(['a by ann', 'b by owner']);
  });

  test('items that are not a list, or more than maxIterations, fail the loop step and do nothing', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Limits');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Limited',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'each',
          type: 'loop',
          items: '{{ trigger.items }}',
          maxIterations: 2,
          actions: [{ id: 'make', type: 'task.create', projectId, text: '{{ loop.item }}' }],
        },
      ],
    });
    await inbound(automation, { items: ['a', 'b', 'c'] });
    await inbound(automation, { items: 'abc' });
    const runs = await settledRuns(api, automation.id, 2);
    expect(runs.map((r: any) => [r.status, r.error.code, r.error.stepId])).toEqual([
      ['failed', 'LOOP_LIMIT', 'each'],
      ['failed', 'INVALID_INPUT', 'each'],
    ]);
    expect(await allTasks(server, projectId)).toEqual([]);
  });

  test('a loop definition is validated like any other (missing actions, duplicate ids inside, bad limit)', async () => {
    const api = client(server, server.token);
    const bad = [
      [{ id: 'each', type: 'loop', items: '{{ trigger.x }}' }, 'actions[0].actions'],
      [{ id: 'each', type: 'loop', items: [], maxIterations: 100000, actions: [] }, 'actions[0].maxIterations'],
      [{ id: 'each', type: 'loop', items: [], actions: [{ id: 'each', type: 'delay', seconds: 1 }] }, 'actions[0].actions[0].id'],
      [{ id: 'each', type: 'loop', items: '{{ trigger.x ', actions: [] }, 'actions[0].items'],
    ] as const;
    for (const [action, field] of bad) {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad loop',
        trigger: { type: 'webhook' },
        actions: [action],
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.field).toBe(field);
    }
  });
});
