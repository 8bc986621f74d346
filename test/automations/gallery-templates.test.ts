import { addUser, client, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, receiver } from './helpers';
import { TEMPLATES, choiceReady, type AutomationTemplate, type TemplateChoices } from '../../web/src/automations/templates';

/**
 * The web app's template gallery (web/src/automations/templates.ts; docs/automations.md
 * "Templates") against the real server: every template, with its choices made, is accepted by
 * `POST /api/v1/automations` exactly as built, uses only kinds of the catalogue, and the ones that
 * post to a URL send what they promise on a test run. A template can never rot unseen.
 */
describe('gallery templates', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let choices: Record<string, string>;
  let projectId: string;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver();
    projectId = await newProject(server, 'Gallery');
    addUser(server, 'gal-ann', { workspaceId: server.workspaceId, role: 'Participant' });
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/GITHUB_WEBHOOK_SECRET`, { value: 'gh-secret' })).status).toBe(
      200,
    );
    const agent = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Drafter',
      data: { type: 'agent', data: { commands: [{ id: 'draft', name: 'Draft', prompt: 'Draft: {{ input }}' }] } },
    });
    expect(agent.status).toBe(200);
    // What the gallery's pickers offer: ids and names of the workspace's things, a URL typed.
    choices = {
      project: projectId,
      agent: agent.body.item.id,
      agentCommand: 'Draft',
      member: 'gal-ann',
      secret: 'GITHUB_WEBHOOK_SECRET',
      url: `${rx.url}/hook`,
    };
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  /** The template's choices as the gallery fills them (optional ones filled unless `skipOptional`). */
  function fill(template: AutomationTemplate, skipOptional = false): TemplateChoices {
    const values: TemplateChoices = {};
    for (const c of template.choices) values[c.key] = skipOptional && c.optional ? '' : choices[c.kind]!;
    for (const c of template.choices) expect(choiceReady(c, values[c.key])).toBe(true);
    return values;
  }

  async function create(template: AutomationTemplate, values: TemplateChoices) {
    const definition = template.build(values);
    const res = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, enabled: false, ...definition });
    expect({ template: template.id, status: res.status, error: res.body.error }).toEqual({
      template: template.id,
      status: 200,
      error: undefined,
    });
    expect(res.body.item).toMatchObject({ ...definition, enabled: false });
    return res.body.item;
  }

  test('at least 8 templates, each with an id, title, one-line description and icon, using only catalogue kinds', async () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    const kinds = (await api.get('/api/v1/automations/kinds')).body;
    const triggers = new Set(kinds.triggers.map((k: { type: string }) => k.type));
    const actions = new Set(kinds.actions.map((k: { type: string }) => k.type));
    const nested = new Map<string, string[]>(kinds.actions.map((k: { type: string; nested?: string[] }) => [k.type, k.nested ?? []]));
    const walk = (steps: Record<string, unknown>[]): string[] =>
      steps.flatMap((s) => [
        s.type as string,
        ...(nested.get(s.type as string) ?? []).flatMap((n) => walk((s[n] as Record<string, unknown>[]) ?? [])),
      ]);
    for (const t of TEMPLATES) {
      expect(t.title.length).toBeGreaterThan(0);
      expect(t.description).not.toContain('\n');
      expect(t.icon).toMatch(/^[a-z0-9-]+$/);
      const d = t.build(fill(t));
      expect(triggers.has(d.trigger.type)).toBe(true);
      for (const type of walk(d.actions))
        expect({ template: t.id, type, known: actions.has(type) }).toEqual({ template: t.id, type, known: true });
    }
  });

  test.each(TEMPLATES.map((t) => [t.id, t] as const))('%s is accepted by the server as built', async (_id, template) => {
    await create(template, fill(template));
    if (template.choices.some((c) => c.optional)) await create(template, fill(template, true));
  });

  test('the chat templates and approval before publish post what they promise on a test run', async () => {
    const byId = (id: string) => TEMPLATES.find((t) => t.id === id)!;
    const run = async (id: string, payload: Record<string, unknown>) => {
      const a = await create(byId(id), fill(byId(id)));
      const res = await api.post(`/api/v1/automations/${a.id}/test`, { payload });
      expect({ id, status: res.body.item.status, error: res.body.item.error }).toEqual({ id, status: 'completed', error: undefined });
      return JSON.parse(rx.received.at(-1)!.body);
    };
    expect(await run('new-task-to-chat', { projectTitle: 'Gallery', nodeText: 'Buy milk', projectLink: 'https://t.example/p' })).toEqual({
      text: 'New task in Gallery: Buy milk https://t.example/p',
    });
    await addTasks(server, projectId, ['Open one', 'Open two']);
    expect((await run('daily-digest', {})).text).toBe('Open tasks (2):\n• Open one\n• Open two\n');
    expect(
      await run('failed-run-alert', {
        automationName: 'Sync',
        error: { code: 'HTTP_ERROR', message: 'boom' },
        runLink: 'https://t.example/r',
      }),
    ).toEqual({
      text: 'Automation "Sync" failed: boom https://t.example/r',
    });
    const publish = await create(byId('approval-before-publish'), fill(byId('approval-before-publish')));
    const waiting = (
      await api.post(`/api/v1/automations/${publish.id}/test`, {
        payload: {
          projectId,
          nodeId: (await addTasks(server, projectId, ['Post']))[0]!.id,
          nodeText: 'Post',
          projectLink: 'https://t.example/p',
        },
      })
    ).body.item;
    expect(waiting).toMatchObject({ status: 'waiting', waitingFor: { kind: 'approval', stepId: 'approve' } });
    const approved = await api.post(`/api/v1/automations/${publish.id}/runs/${waiting.id}/approve`, {});
    expect(approved.body.item.status).toBe('completed');
    expect(JSON.parse(rx.received.at(-1)!.body)).toEqual({ title: 'Post', link: 'https://t.example/p', approvedBy: 'owner' });
    expect(await run('approval-to-chat', { automationName: 'Publish', message: 'Ship it?', decisionLink: 'https://t.example/d' })).toEqual({
      text: '"Publish" asks: Ship it? Decide: https://t.example/d',
    });
  });

  test('the task templates make the tasks, notes, comments and assignees they promise on a test run', async () => {
    const byId = (id: string) => TEMPLATES.find((t) => t.id === id)!;
    const run = async (id: string, payload: Record<string, unknown>) => {
      const a = await create(byId(id), fill(byId(id)));
      const res = await api.post(`/api/v1/automations/${a.id}/test`, { payload });
      expect({ id, status: res.body.item.status, error: res.body.item.error }).toEqual({ id, status: 'completed', error: undefined });
      return res.body.item.steps as { id: string; output: { id?: string; text?: string } }[];
    };
    const note = async (taskId: string) => (await api.get(`/api/v1/projects/${projectId}/tasks/${taskId}/note`)).body.item;

    const form = await run('form-to-task', { title: 'New laptop', details: 'A 14" one\nwith a dock', email: 'ann@example.com' });
    expect(form[0]!.output.text).toBe('New laptop');
    expect(form[1]!.output.text).toBe('A 14" one\nwith a dock\n\nFrom: ann@example.com');

    const issue = await run('github-issue-to-task', {
      action: 'opened',
      issue: { title: 'Crash on save', number: 42, html_url: 'https://github.com/o/r/issues/42', body: 'Steps:\n1. save' },
    });
    expect(issue[0]!.output.text).toBe('Crash on save (#42)');
    expect((await note(issue[0]!.output.id!)).value).toBe('https://github.com/o/r/issues/42');
    expect(issue[2]!.output.text).toBe('Steps:\n1. save');

    const agent = await run('agent-on-new-task', {
      projectId,
      projectTitle: 'Gallery',
      projectLink: 'https://t.example/p',
      nodeId: (await addTasks(server, projectId, ['Plan the launch']))[0]!.id,
      nodeText: 'Plan the launch',
    });
    expect(agent[1]!.output.text).toBe(agent[0]!.output.text);
    expect(agent[0]!.output.text).toEqual(expect.any(String));

    const [task] = await addTasks(server, projectId, ['Write the brief']);
    const taskVars = {
      projectId,
      projectTitle: 'Gallery',
      projectLink: 'https://t.example/p',
      nodeId: task!.id,
      nodeText: 'Write the brief',
    };
    const reminder = await run('due-reminder', { ...taskVars, assignees: [] });
    expect(reminder[0]!.output.text).toBe('Reminder: this task is due now.');
    const named = await run('due-reminder', { ...taskVars, assignees: [{ handle: 'gal-ann' }, { handle: 'bob' }] });
    expect(named[0]!.output.text).toBe('Reminder: this task is due now. @gal-ann, @bob');
    await run('auto-assign', taskVars);
    const assignees = (await api.get(`/api/v1/projects/${projectId}/tasks/${task!.id}/assignees`)).body.items;
    expect(assignees.map((a: { handle: string }) => a.handle)).toEqual(['gal-ann']);
  });
});
