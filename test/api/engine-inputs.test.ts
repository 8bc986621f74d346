import { client, type TestServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation } from '../automations/helpers';

/**
 * The automation engine's task actions are checked against the routes' own body schemas: an
 * input the route refuses fails the step with the very error (code, message, `{field, reason}`)
 * the route answers, and changes nothing.
 */
describe("engine task actions are validated by the routes' schemas", () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  /** The project and its two tasks that every case acts on. */
  let ids: { projectId: string; taskId: string; otherId: string };

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    const projectId = await newProject(server, 'Engine inputs');
    const [one, two] = await addTasks(server, projectId, ['One', 'Two']);
    ids = { projectId, taskId: one!.id, otherId: two!.id };
  });
  afterAll(() => server.close());

  /** The error of a one-action automation run with `payload`: code, message and details of its only step. */
  async function stepError(action: Record<string, unknown>, payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Refused',
      trigger: { type: 'webhook' },
      actions: [{ id: 'act', ...action }],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload });
    expect(res.status).toBe(200);
    const [step] = res.body.item.steps;
    expect(step).toMatchObject({ id: 'act', status: 'failed', attempts: 1, error: { status: 400, transient: false } });
    const { code, message, details } = step.error;
    return { code, message, details };
  }

  /** The error of a route call: code, message and details of the envelope. */
  async function routeError(method: 'post' | 'put', path: string, body: unknown) {
    const res = await api[method](`/api/v1/projects/${ids.projectId}${path}`, body);
    expect(res.status).toBe(400);
    const { code, message, details } = res.body.error;
    return { code, message, details };
  }

  const ref = () => ({ projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.taskId }}' });

  const cases: [string, () => Promise<[Record<string, unknown>, Record<string, unknown>, ReturnType<typeof routeError>]>][] = [
    [
      'task.create: content over 2000 characters',
      async () => [
        { type: 'task.create', projectId: '{{ trigger.projectId }}', text: '{{ trigger.text }}' },
        { text: 'x'.repeat(2001) },
        routeError('post', '/tasks/', { tasks: [{ contentType: 'text/markdown', content: 'x'.repeat(2001) }] }),
      ],
    ],
    [
      'task.create: a reference that is not a uuid',
      async () => [
        { type: 'task.create', projectId: '{{ trigger.projectId }}', text: 'New', referenceTaskId: "{{ 'not-a-task' }}" },
        {},
        routeError('post', '/tasks/', { tasks: [{ contentType: 'text/markdown', content: 'New', taskId: 'not-a-task' }] }),
      ],
    ],
    [
      'task.create: an unknown placement',
      async () => [
        {
          type: 'task.create',
          projectId: '{{ trigger.projectId }}',
          text: 'New',
          referenceTaskId: '{{ trigger.taskId }}',
          placement: 'sideways',
        },
        {},
        routeError('post', '/tasks/', {
          tasks: [{ contentType: 'text/markdown', content: 'New', taskId: ids.taskId, placement: 'sideways' }],
        }),
      ],
    ],
    [
      'task.update: empty content',
      async () => [
        { type: 'task.update', ...ref(), text: '{{ trigger.text }}' },
        { text: '' },
        routeError('put', `/tasks/${ids.taskId}`, { contentType: 'text/markdown', content: '' }),
      ],
    ],
    [
      'task.update: a line break',
      async () => [
        { type: 'task.update', ...ref(), text: '{{ trigger.text }}' },
        { text: 'two\nlines' },
        routeError('put', `/tasks/${ids.taskId}`, { contentType: 'text/markdown', content: 'two\nlines' }),
      ],
    ],
    [
      'task.move: a target that is not a uuid',
      async () => [
        { type: 'task.move', ...ref(), targetTaskId: "{{ 'not-a-task' }}", position: 'afterend' },
        {},
        routeError('put', `/tasks/${ids.taskId}/move`, { target: { taskId: 'not-a-task', position: 'afterend' } }),
      ],
    ],
    [
      'task.move: an unknown position',
      async () => [
        { type: 'task.move', ...ref(), targetTaskId: '{{ trigger.otherId }}', position: 'sideways' },
        {},
        routeError('put', `/tasks/${ids.taskId}/move`, { target: { taskId: ids.otherId, position: 'sideways' } }),
      ],
    ],
    [
      'task.setNote: an unknown type',
      async () => [
        { type: 'task.setNote', ...ref(), noteType: 'text/html', value: 'Note' },
        {},
        routeError('put', `/tasks/${ids.taskId}/note`, { type: 'text/html', value: 'Note' }),
      ],
    ],
    [
      'task.setNote: a note over 10000 characters',
      async () => [
        { type: 'task.setNote', ...ref(), value: '{{ trigger.text }}' },
        { text: 'n'.repeat(10001) },
        routeError('put', `/tasks/${ids.taskId}/note`, { type: 'text/plain', value: 'n'.repeat(10001) }),
      ],
    ],
    [
      'task.assign: more than 100 handles',
      async () => {
        const handles = Array.from({ length: 101 }, (_, i) => `user${i}`);
        return [
          { type: 'task.assign', ...ref(), handles: '{{ trigger.handles }}' },
          { handles },
          routeError('put', `/tasks/${ids.taskId}/assignees`, { handles }),
        ];
      },
    ],
  ];

  test.each(cases)('%s: the step fails with the route’s error', async (_name, make) => {
    const [action, payload, route] = await make();
    const fromRoute = await route;
    expect(fromRoute.code).toBe('VALIDATION_ERROR');
    expect(fromRoute.details).toEqual({ field: expect.any(String), reason: expect.any(String) });
    expect(await stepError(action, { ...ids, ...payload })).toEqual(fromRoute);
  });

  test('a refused action changes nothing', async () => {
    expect((await allTasks(server, ids.projectId)).map((t) => t.text)).toEqual(['One', 'Two']);
  });
});
