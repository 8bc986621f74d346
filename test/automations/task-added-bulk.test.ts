import { client, type TestServer } from '../helpers/server';
import { addTasks, allTasks } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, runsOf, settledRuns, waitFor } from './helpers';

/**
 * "Task added" fires once per created task, whatever created it: a project made from markdown,
 * a project copy and a project from a template (not only POST .../tasks).
 */
describe('task added for tasks created in bulk', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  /** A new folder with a "task added" automation scoped to it. */
  async function watchedFolder(name: string): Promise<{ folderId: string; automationId: string }> {
    const folder = await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name });
    expect(folder.status).toBe(200);
    const automation = await createAutomation(api, server.workspaceId, {
      name: `Added in ${name}`,
      trigger: { type: 'task.added', scope: { folderId: folder.body.item.id } },
      actions: [],
    });
    return { folderId: folder.body.item.id, automationId: automation.id };
  }

  /**
   * The runs of `automationId` once `expected` tasks were reported: one witness task is added
   * through the API afterwards, and its run arriving last shows no further bulk run is on the way.
   */
  async function runsThenWitness(automationId: string, projectId: string, expected: number): Promise<any[]> {
    await settledRuns(api, automationId, expected);
    const [witness] = await addTasks(server, projectId, ['witness']);
    const runs = await settledRuns(api, automationId, expected + 1);
    expect(runs).toHaveLength(expected + 1);
    expect(runs[expected].trigger.variables.nodeId).toBe(witness!.id);
    return runs.slice(0, expected);
  }

  test('markdown import: one run per imported task, parents first, with the task fields', async () => {
    const { folderId, automationId } = await watchedFolder('Imports');
    const res = await api.post('/api/v1/projects', {
      folderId,
      contentType: 'text/markdown',
      content: '# Launch\n\n- Plan\n  - Budget\n- [x] Announce',
    });
    expect(res.status).toBe(200);
    const projectId = res.body.item.id;
    const tasks = await allTasks(server, projectId);
    expect(tasks.map((t) => t.text)).toEqual(['Plan', 'Budget', 'Announce']);
    const runs = await runsThenWitness(automationId, projectId, 3);
    expect(runs.every((r) => r.status === 'completed' && r.trigger.type === 'task.added')).toBe(true);
    expect(runs.map((r) => r.trigger.variables.nodeId)).toEqual(tasks.map((t) => t.id));
    expect(runs[0].trigger.variables).toMatchObject({ projectId, projectTitle: 'Launch', nodeText: 'Plan', assignees: [] });
    expect(runs[0].trigger.variables.projectLink).toBe(`${server.url}/projects/${projectId}`);
  });

  test('project copy and from-template: one run per copied task', async () => {
    const source = await api.post('/api/v1/projects', {
      folderId: server.workspaceId,
      contentType: 'text/markdown',
      content: '# Onboarding\n\n- Laptop\n- Accounts\n  - Email',
    });
    expect(source.status).toBe(200);
    const note = await api.put(
      `/api/v1/projects/${source.body.item.id}/tasks/${(await allTasks(server, source.body.item.id))[0]!.id}/note`,
      {
        type: 'text',
        value: 'Order early',
      },
    );
    expect(note.status).toBe(200);

    const copies = await watchedFolder('Copies');
    const copy = await api.post(`/api/v1/projects/${source.body.item.id}/copy`, {
      folderId: copies.folderId,
      projectTitle: 'Onboarding (Ana)',
    });
    expect(copy.status).toBe(200);
    const copied = await allTasks(server, copy.body.item.id);
    const copyRuns = await runsThenWitness(copies.automationId, copy.body.item.id, 3);
    expect(copyRuns.map((r) => r.trigger.variables.nodeText)).toEqual(['Laptop', 'Accounts', 'Email']);
    expect(copyRuns.map((r) => r.trigger.variables.nodeId)).toEqual(copied.map((t) => t.id));
    expect(copyRuns[0].trigger.variables).toMatchObject({ projectTitle: 'Onboarding (Ana)', nodeNote: 'Order early' });

    const template = await api.post(`/api/v1/projects/${source.body.item.id}/copy`, { folderId: server.workspaceId, isTemplate: true });
    expect(template.status).toBe(200);
    const fromTemplate = await watchedFolder('From templates');
    const made = await api.post('/api/v1/projects/from-template', { folderId: fromTemplate.folderId, templateId: template.body.item.id });
    expect(made.status).toBe(200);
    const madeRuns = await runsThenWitness(fromTemplate.automationId, made.body.item.id, 3);
    expect(madeRuns.map((r) => r.trigger.variables.nodeText)).toEqual(['Laptop', 'Accounts', 'Email']);
    expect(new Set(madeRuns.map((r) => r.trigger.variables.projectId))).toEqual(new Set([made.body.item.id]));
  });

  test('a large import raises one event per task (several outbox batches, one transaction)', async () => {
    const { folderId, automationId } = await watchedFolder('Large');
    const count = 450; // more than two outbox batches of 200
    const content = ['# Large', '', ...Array.from({ length: count }, (_, i) => `- Item ${i + 1}`)].join('\n');
    const res = await api.post('/api/v1/projects', { folderId, contentType: 'text/markdown', content });
    expect(res.status).toBe(200);
    /** Every run of the automation, newest first, following the `before` cursor. */
    const allRuns = async (): Promise<any[]> => {
      const out: any[] = [];
      for (;;) {
        const page = await runsOf(api, automationId, out.length ? `&before=${out[out.length - 1].id}` : '');
        out.push(...page);
        if (page.length < 100) return out;
      }
    };
    const runs = await waitFor(
      async () => {
        const list = await allRuns();
        return list.length >= count && list.every((r) => r.status === 'completed') && list;
      },
      `${count} completed runs`,
      150_000,
    );
    expect(runs).toHaveLength(count);
    const [witness] = await addTasks(server, res.body.item.id, ['witness']);
    const after = await waitFor(
      async () => {
        const list = await allRuns();
        return list.length > count && list;
      },
      'the witness run',
      30_000,
    );
    expect(after).toHaveLength(count + 1);
    expect(after[0].trigger.variables.nodeId).toBe(witness!.id);
  }, 240_000);
});
