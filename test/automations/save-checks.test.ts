import fs from 'node:fs';
import path from 'node:path';
import { AUTOMATION_VARIABLES, ERROR_VARIABLES, RUN_VARIABLES, TRIGGER_VARIABLES } from '../../engine/src';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, settledRuns } from './helpers';

/**
 * Typos are refused when an automation is saved (docs "Checked when saved"): template variables
 * that name nothing the step can see, and ids written out in full that the workspace lacks.
 */
describe('save checks: template variables and literal ids', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'Checks');
  });
  afterAll(() => server.close());

  const save = (definition: Record<string, unknown>) =>
    api.post('/api/v1/automations', { workspaceId: server.workspaceId, name: 'Checked', ...definition });
  const webhook = (actions: unknown[]) => save({ trigger: { type: 'webhook' }, actions });
  const make = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'task.create', projectId, text, ...extra });
  const refused = (res: { status: number; body: any }, field: string, reason: string, ...words: string[]) => {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual({ field, reason });
    for (const word of words) expect(res.body.message).toContain(word);
  };

  test('an unknown step id names the field and the closest step', async () => {
    const res = await webhook([
      { id: 'fetch', type: 'set', values: { n: 1 } },
      { id: 'other', type: 'set', values: { n: 2 } },
      make('Got {{ steps.fetc.body.anything }}', { id: 'use' }),
    ]);
    refused(res, 'actions[2].text', 'unknown_variable', 'steps.fetc', 'did you mean steps.fetch?');
    refused(
      await webhook([{ id: 'a', type: 'set', values: { x: { deep: ['{{ steps.aa.x }}'] } } }]),
      'actions[0].values.x.deep[0]',
      'unknown_variable',
      'steps.aa',
    );
  });

  test('a step reads only steps that run before it', async () => {
    const later = await webhook([make('{{ steps.after.id }}', { id: 'first' }), make('x', { id: 'after' })]);
    refused(later, 'actions[0].text', 'unknown_variable', "step 'after' does not run before this one");
    const self = await webhook([make('{{ steps.me.id }}', { id: 'me' })]);
    refused(self, 'actions[0].text', 'unknown_variable', 'steps.me');
    const loop = {
      id: 'each',
      type: 'loop',
      items: '{{ trigger.items }}',
      actions: [{ id: 'inner', type: 'set', values: { n: '{{ loop.index }}' } }],
    };
    refused(await webhook([loop, make('{{ steps.inner.n }}')]), 'actions[1].text', 'unknown_variable', 'steps.inner');
    const branch = {
      id: 'pick',
      type: 'branch',
      conditions: { anyOf: [{ allOf: [{ left: 1, operator: 'equals', right: 1 }] }] },
      then: [{ id: 'yes', type: 'set', values: { n: 1 } }],
      else: [make('{{ steps.yes.n }}')],
    };
    refused(await webhook([branch]), 'actions[0].else[0].text', 'unknown_variable', 'steps.yes');
    const fan = (second: string) => ({
      id: 'fan',
      type: 'parallel',
      branches: { a: [{ id: 'one', type: 'set', values: { n: 1 } }], b: [{ id: 'two', type: 'set', values: { n: second } }] },
    });
    refused(await webhook([fan('{{ steps.one.n }}')]), 'actions[0].branches.b[0].values.n', 'unknown_variable', 'steps.one');
    expect((await webhook([fan('{{ trigger.n }}'), make('{{ steps.one.n }} {{ steps.two.n }} {{ steps.fan.branches }}')])).status).toBe(
      200,
    );
  });

  test('unknown roots, and loop or error outside a loop or an error path, are refused', async () => {
    refused(await webhook([make('{{ trigegr.x }}')]), 'actions[0].text', 'unknown_variable', "'trigegr'", 'did you mean trigger.x?');
    refused(await webhook([make('{{ env.HOME }}')]), 'actions[0].text', 'unknown_variable', "'env'", 'trigger');
    refused(await webhook([make('{{ loop.item }}')]), 'actions[0].text', 'unknown_variable', 'only defined inside a loop');
    refused(await webhook([make('{{ error.message }}')]), 'actions[0].text', 'unknown_variable', 'only defined inside an error path');
    refused(await webhook([make('{{ run.idd }}')]), 'actions[0].text', 'unknown_variable', 'did you mean run.id?');
    refused(await webhook([make('{{ automation.nmae }}')]), 'actions[0].text', 'unknown_variable', 'did you mean automation.name?');
    const path = {
      id: 'h',
      type: 'http.request',
      method: 'GET',
      url: 'https://example.org/x',
      onError: { then: [make('{{ error.mesage }}')] },
    };
    refused(await webhook([path]), 'actions[0].onError.then[0].text', 'unknown_variable', 'did you mean error.message?');
    const loop = { id: 'each', type: 'loop', items: [1], actions: [make('{{ loop.idex }}')] };
    refused(await webhook([loop]), 'actions[0].actions[0].text', 'unknown_variable', 'did you mean loop.index?');
  });

  test('a trigger variable the trigger kind does not have is refused; webhook and custom-field variables are open', async () => {
    refused(
      await save({ trigger: { type: 'task.added' }, actions: [make('{{ trigger.nodeTxt }}')] }),
      'actions[0].text',
      'unknown_variable',
      'task.added trigger has no variable',
      'did you mean trigger.nodeText?',
    );
    refused(
      await save({ trigger: { type: 'schedule', everyMinutes: 5 }, actions: [make('{{ trigger.firedat }}')] }),
      'actions[0].text',
      'unknown_variable',
      'did you mean trigger.firedAt?',
    );
    const form = { type: 'form', title: 'F', fields: [{ name: 'email', label: 'E', type: 'text' }] };
    refused(
      await save({ trigger: form, actions: [make('{{ trigger.emial }}')] }),
      'actions[0].text',
      'unknown_variable',
      'form trigger has no field',
      'did you mean trigger.email?',
    );
    expect((await save({ trigger: form, actions: [make('{{ trigger.email }}')] })).status).toBe(200);
    expect((await webhook([make('{{ trigger.anything.at.all }} {{ trigger.body }}')])).status).toBe(200);
    expect(
      (await save({ trigger: { type: 'task.completed' }, actions: [make('{{ trigger.Score }} by {{ trigger.completedBy }}')] })).status,
    ).toBe(200);
    expect(
      (await save({ trigger: { type: 'task.due' }, actions: [make('{{ trigger.dueAt }} {{ trigger.nodeNote | default: "" }}')] })).status,
    ).toBe(200);
  });

  test('correct definitions pass: nested reach, locals, loops, error paths, disabled steps', async () => {
    const res = await webhook([
      { id: 'calc', type: 'set', values: { total: '{{ trigger.qty | times: 2 }}' } },
      {
        id: 'route',
        type: 'branch',
        conditions: { anyOf: [{ allOf: [{ left: '{{ steps.calc.total }}', operator: 'gt', right: 1 }] }] },
        then: [{ id: 'big', type: 'set', values: { seen: '{{ steps.route.result }} {{ steps.calc.total }}' } }],
        else: [{ id: 'small', type: 'set', values: { n: 1 } }],
      },
      {
        id: 'each',
        type: 'loop',
        items: '{{ trigger.lines }}',
        actions: [
          { id: 'line', type: 'set', values: { label: '{{ loop.index }}/{{ loop.count }} {{ loop.item.name }} {{ steps.calc.total }}' } },
          { id: 'again', type: 'set', values: { label: '{{ steps.line.label }}' } },
        ],
      },
      {
        id: 'call',
        type: 'http.request',
        method: 'GET',
        url: 'https://example.org/{{ steps.each.count }}',
        onError: { then: [{ id: 'fix', type: 'set', values: { why: '{{ error.message }} {{ steps.call.error.code }}' } }] },
      },
      { id: 'off', type: 'set', disabled: true, values: { x: '{{ steps.nowhere.x }}' } },
      make(
        '{% assign who = trigger.owner | default: "nobody" %}{{ who }} {% for l in trigger.lines %}{{ l.name }}{{ forloop.index }}{% endfor %} {{ steps.big.seen | default: steps.small.n }} {{ steps.fix.why | default: "" }} {{ steps.off.x | default: "" }} {{ run.id }} {{ automation.name }} {{ steps[trigger.key] }}',
      ),
    ]);
    expect(res.status).toBe(200);
  });

  test('an unknown secret names its field', async () => {
    const res = await webhook([
      { id: 'call', type: 'http.request', method: 'GET', url: 'https://example.org/x', headers: { 'X-Key': '{{ secrets.API_KEI }}' } },
    ]);
    refused(res, 'actions[0].headers.X-Key', 'unknown_secret', 'API_KEI');
  });

  test('literal project, task and agent ids must exist; a literal command must be one of the agent', async () => {
    const [task] = await addTasks(server, projectId, ['Checked task']);
    const otherProject = await newProject(server, 'Other');
    refused(
      await webhook([{ type: 'task.create', projectId: 'no-such-project', text: 'x' }]),
      'actions[0].projectId',
      'not_found',
      "'no-such-project'",
    );
    refused(
      await webhook([{ type: 'task.complete', projectId, taskId: 'no-such-task' }]),
      'actions[0].taskId',
      'not_found',
      "'no-such-task'",
    );
    refused(
      await webhook([
        { type: 'task.move', projectId: otherProject, taskId: '{{ trigger.t }}', targetTaskId: task!.id, position: 'afterend' },
      ]),
      'actions[0].targetTaskId',
      'not_found',
      'is not in project',
    );
    refused(
      await webhook([{ type: 'task.create', projectId, text: 'x', referenceTaskId: 'gone' }]),
      'actions[0].referenceTaskId',
      'not_found',
    );
    expect(
      (
        await webhook([
          { type: 'task.complete', projectId, taskId: task!.id },
          { type: 'task.complete', projectId: '{{ trigger.p }}', taskId: '{{ trigger.t }}' },
        ])
      ).status,
    ).toBe(200);

    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Scribe',
        data: { type: 'agent', data: { commands: [{ id: 'sum', name: 'Summarise', prompt: 'S: {{ input }}' }] } },
      })
    ).body.item;
    refused(
      await webhook([{ type: 'agent.command', agentId: 'no-such-agent', command: 'sum' }]),
      'actions[0].agentId',
      'not_found',
      "'no-such-agent'",
    );
    refused(
      await webhook([{ type: 'agent.command', agentId: agent.id, command: 'Sumarise' }]),
      'actions[0].command',
      'not_found',
      "no command 'Sumarise'",
      "did you mean 'Summarise'?",
    );
    const ok = await webhook([
      { id: 'a', type: 'agent.command', agentId: agent.id, command: 'sum' },
      { id: 'b', type: 'agent.command', agentId: agent.id, command: ' summarise ' },
      { id: 'c', type: 'agent.command', agentId: agent.id, command: '{{ trigger.command }}' },
    ]);
    expect(ok.status).toBe(200);
  });

  test('updates and restores are checked too', async () => {
    const [task] = await addTasks(server, projectId, ['Restorable']);
    const a = await createAutomation(api, server.workspaceId, {
      name: 'V',
      trigger: { type: 'webhook' },
      actions: [{ id: 'done', type: 'task.complete', projectId, taskId: task!.id }],
    });
    const typo = await api.put(`/api/v1/automations/${a.id}`, {
      name: 'V',
      trigger: { type: 'webhook' },
      actions: [make('{{ stpes.done.id }}')],
    });
    refused(typo, 'actions[0].text', 'unknown_variable', 'did you mean steps.done.id?');
    expect((await api.put(`/api/v1/automations/${a.id}`, { name: 'V2', trigger: { type: 'webhook' }, actions: [] })).status).toBe(200);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${task!.id}`)).status).toBe(200);
    refused(await api.post(`/api/v1/automations/${a.id}/versions/1/restore`), 'actions[0].taskId', 'not_found');
  });

  test('a template error at run time names the field', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Runtime',
      trigger: { type: 'webhook' },
      actions: [{ id: 'calc', type: 'set', values: { ok: '{{ trigger.title }}', label: { of: 'For {{ trigger.owner }}' } } }],
    });
    expect((await call(server.url, 'POST', new URL(a.webhook.url).pathname, { body: { title: 'x' } })).status).toBe(200);
    const [run] = await settledRuns(api, a.id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE_ERROR', stepId: 'calc' } });
    expect(run.error.message).toContain('values.label.of: ');
    expect(run.error.message).toContain('trigger.owner');
  });
});

describe('docs: the Triggers table lists each trigger kind’s variables', () => {
  const docs = fs.readFileSync(path.resolve(__dirname, '../../docs/automations.md'), 'utf8');
  test.each(Object.entries(TRIGGER_VARIABLES))('%s', (type, { names, open }) => {
    const row = docs.split('\n').find((line) => line.startsWith('| ') && line.split('|')[1]!.includes(`\`${type}\``));
    expect(row).toBeDefined();
    const cell = row!.split('|').slice(-2)[0]!;
    for (const name of names) expect(cell).toMatch(new RegExp(`\\b${name}\\b`));
    if (open) expect(cell).toMatch(/every|one key per|any/);
  });
  test.each([
    ['run', RUN_VARIABLES],
    ['automation', AUTOMATION_VARIABLES],
    ['error', ERROR_VARIABLES],
  ] as const)('the Variables table lists the fields of %s', (root, names) => {
    const row = docs.split('\n').find((line) => line.startsWith(`| \`${root}\` |`));
    expect(row).toBeDefined();
    for (const name of names) expect(row).toMatch(new RegExp(`\\b${name}\\b`));
  });
});
