import { addUser, client, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, settledRuns } from './helpers';

/** The shape of a JSON value: its type, an object's keys with theirs, an array's first item's. */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, shapeOf(v)]));
  return typeof value;
}

/** `real`'s shape kept to what `example` names (an array by its first item). */
function alike(example: unknown, real: unknown): unknown {
  // An empty real list says nothing of its items' shape: taken as the example's.
  if (Array.isArray(example) && Array.isArray(real)) return real.length === 0 ? shapeOf(example) : [alike(example[0], real[0])];
  if (example && real && typeof example === 'object' && typeof real === 'object' && !Array.isArray(example))
    return Object.fromEntries(Object.keys(example).map((k) => [k, alike((example as never)[k], (real as never)[k])]));
  return shapeOf(real);
}

/**
 * Every trigger kind's `example` (GET /api/v1/automations/kinds; docs "Automations", "Samples")
 * is shaped as its real events are: for each kind a real event is raised through the API and the
 * run it starts has the example's variables, each of the same type (an array's items alike), and
 * no variable the example lacks.
 */
describe('trigger kinds declare examples shaped as their real events', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let examples: Map<string, Record<string, unknown>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    const catalogue = (await api.get('/api/v1/automations/kinds')).body;
    examples = new Map(catalogue.triggers.filter((k: any) => k.example).map((k: any) => [k.type, k.example]));
  });
  afterAll(async () => {
    await server?.close();
  });

  test('every built-in trigger kind but the form and the assistant call (variables from their fields) has an example', async () => {
    const catalogue = (await api.get('/api/v1/automations/kinds')).body;
    // A piece's polling trigger has its piece's own `sampleData` as its example, where the piece declares one.
    expect(catalogue.triggers.filter((k: any) => !k.example && !k.piece).map((k: any) => k.type)).toEqual(['form', 'mcp']);
  });

  test('task, project, run and webhook events give the variables their examples show', async () => {
    addUser(server, 'exa', { workspaceId: server.workspaceId, role: 'Participant' });
    const projectId = await newProject(server, 'Examples');
    const field = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'text' })).body.item;
    const kinds = [
      'task.added',
      'task.completed',
      'task.assigned',
      'task.updated',
      'task.deleted',
      'comment.created',
      'field.changed',
      'project.created',
      'project.completed',
      'automation.failed',
      'approval.requested',
      'webhook',
    ];
    const automations = new Map<string, { id: string; webhook?: { url: string } }>();
    for (const type of kinds) {
      const trigger: Record<string, unknown> = { type };
      if (type === 'field.changed') trigger.field = 'Stage';
      automations.set(
        type,
        await createAutomation(api, server.workspaceId, { name: type, trigger, actions: [{ id: 'v', type: 'set', values: { a: 1 } }] }),
      );
    }
    // The events: a task's life, a project's, a failing run and one waiting for an approval, an inbound call.
    const [task] = await addTasks(server, projectId, ['Write the announcement']);
    const base = `/api/v1/projects/${projectId}/tasks/${task!.id}`;
    await api.put(`${base}/assignees`, { handles: ['exa'] });
    await api.put(base, { contentType: 'text/plain', content: 'Write the post' });
    await api.post(`${base}/comments`, { text: 'Looks good' });
    await api.put(`${base}/fields/${field.id}`, { value: 'Review' });
    await api.post(`${base}/complete`, {});
    await api.delete(base);
    await api.post(`/api/v1/projects/${await newProject(server, 'Launch')}/complete`, {});
    const failing = await createAutomation(api, server.workspaceId, {
      name: 'Fails',
      trigger: { type: 'webhook' },
      actions: [{ id: 'boom', type: 'task.get', projectId, taskId: '{{ trigger.body.missing }}' }],
    });
    const asking = await createAutomation(api, server.workspaceId, {
      name: 'Asks',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval', message: 'Go?', approvers: ['exa'] }],
    });
    for (const a of [failing, asking]) expect((await fetch(a.webhook.url, { method: 'POST', body: '{}' })).ok).toBe(true);
    const hook = automations.get('webhook')!;
    const call = await fetch(hook.webhook!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'order.created', id: 'ord_1', amount: 42, currency: 'EUR' }),
    });
    expect(call.ok).toBe(true);

    for (const type of kinds) {
      const [run] = await settledRuns(api, automations.get(type)!.id, 1);
      const real = run.trigger.variables as Record<string, unknown>;
      const example = examples.get(type)!;
      expect({ type, shape: alike(example, real) }).toEqual({ type, shape: shapeOf(example) });
      // Nothing the example leaves out (a completed task's custom field values and a webhook body's own fields aside).
      const open =
        type === 'task.completed' ? ['Stage'] : type === 'webhook' ? ['event', 'id', 'amount', 'currency', 'rawBody', 'http'] : [];
      expect({ type, missing: Object.keys(real).filter((k) => !(k in example) && !open.includes(k)) }).toEqual({ type, missing: [] });
    }
  }, 60_000);
});
