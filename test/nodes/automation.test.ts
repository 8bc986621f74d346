import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeParameters } from 'n8n-workflow';

import { client } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { byId, NODE_TYPES, runNode, runOk, setup, useTaskspaceServer } from './harness';

const AUTOMATION = 'n8n-nodes-taskspace.taskspaceAutomation';
const server = useTaskspaceServer();
const api = () => client(server(), server().token);

/** n8n-core's load-options context for the Automation node with `parameters`. */
function lookup(parameters: INodeParameters): ILoadOptionsFunctions {
  const s = setup(server(), { type: AUTOMATION, parameters });
  s.additionalData.currentNodeParameters = s.node.parameters;
  return new LoadOptionsContext(s.workflow, s.node, s.additionalData, 'parameters') as unknown as ILoadOptionsFunctions;
}
const listSearch = () => NODE_TYPES[AUTOMATION].methods!.listSearch!;

/** The Automation node drives the embedded engine from n8n: list, call, runs, approve and reject. */
describe('Taskspace Automation node', () => {
  test('get many, call the inbound URL, list waiting runs, approve one and reject another', async () => {
    const project = (
      await api().post(`/api/v1/workspaces/${server().workspaceId}/projects`, { contentType: 'text/plain', content: 'From n8n' })
    ).body.item;
    const created = await api().post('/api/v1/automations', {
      workspaceId: server().workspaceId,
      name: 'Needs a yes',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'ok', type: 'approval', message: 'Make {{ trigger.title }}?' },
        { id: 'make', type: 'task.create', projectId: project.id, text: '{{ trigger.title }}: {{ steps.ok.comment | default: "-" }}' },
      ],
    });
    expect(created.status).toBe(200);
    const automationId = created.body.item.id;

    const listed = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'getMany', workspaceId: byId(server().workspaceId), returnAll: true },
    });
    expect(listed.map((i) => i.json.id)).toContain(automationId);

    const calls = await runOk(server(), {
      type: AUTOMATION,
      input: [{ json: { title: 'first' } }, { json: { title: 'second' } }],
      parameters: {
        resource: 'automation',
        operation: 'trigger',
        automationId: byId(automationId),
        body: '={{ JSON.stringify({ title: $json.title }) }}',
      },
    });
    expect(calls.map((c) => c.json)).toEqual([
      { automationId, ok: true, requestId: expect.any(String) },
      { automationId, ok: true, requestId: expect.any(String) },
    ]);

    const waiting = await waitFor(async () => {
      const runs = await runOk(server(), {
        type: AUTOMATION,
        parameters: { resource: 'run', operation: 'getMany', automationId, returnAll: true, filters: { status: 'waiting' } },
      });
      return runs.length === 2 && runs;
    }, 'two waiting runs');
    const byTitle = Object.fromEntries(
      waiting.map((r) => [(r.json.trigger as { variables: { title: string } }).variables.title, String(r.json.id)]),
    );

    // Workspace-wide: the waiting approvals and the runs of every automation.
    const approvals = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'approval', operation: 'getMany', workspaceId: byId(server().workspaceId), returnAll: true },
    });
    expect(approvals.map((a) => a.json.runId).sort()).toEqual([byTitle.first, byTitle.second].sort());
    expect(approvals[0]!.json).toMatchObject({
      automationId,
      automationName: 'Needs a yes',
      message: expect.stringMatching(/^Make (first|second)\?$/),
    });
    const oneApproval = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'approval', operation: 'getMany', workspaceId: byId(server().workspaceId), returnAll: false, limit: 1 },
    });
    expect(oneApproval).toHaveLength(1);
    const inWorkspace = await runOk(server(), {
      type: AUTOMATION,
      parameters: {
        resource: 'run',
        operation: 'getManyInWorkspace',
        workspaceId: byId(server().workspaceId),
        returnAll: true,
        filters: { status: 'waiting', automationId },
      },
    });
    expect(inWorkspace.map((r) => r.json.id).sort()).toEqual([byTitle.first, byTitle.second].sort());
    expect(Object.keys(inWorkspace[0]!.json).sort()).toEqual([
      'automationId',
      'createdAt',
      'id',
      'startedAt',
      'status',
      'trigger',
      'waitingFor',
    ]);
    expect(Object.keys(inWorkspace[0]!.json.trigger as object).sort()).toEqual(['type', 'variables']);
    // Simplify leaves out the request's headers and raw body, also inside `http` (docs/n8n-package.md).
    const simplified = (inWorkspace[0]!.json.trigger as { variables: Record<string, unknown> }).variables;
    expect(Object.keys(simplified).sort()).toEqual(['body', 'http', 'method', 'query', 'title']);
    expect(simplified.http).toEqual({ method: 'POST', query: {} });
    const full = await runOk(server(), {
      type: AUTOMATION,
      parameters: {
        resource: 'run',
        operation: 'getManyInWorkspace',
        workspaceId: byId(server().workspaceId),
        returnAll: false,
        limit: 1,
        simplify: false,
      },
    });
    expect(full).toHaveLength(1);
    expect(full[0]!.json).toHaveProperty('trigger.headers');
    expect(full[0]!.json).toHaveProperty('trigger.variables.headers');
    expect(full[0]!.json).toHaveProperty('trigger.variables.rawBody');
    // Call Inbound URL sent no credential: the inbound URL needs none, and the run records what it got.
    const received = full[0]!.json.trigger as { headers: Record<string, string>; variables: { headers: Record<string, string> } };
    expect(Object.keys(received.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(Object.keys(received.variables.headers).map((h) => h.toLowerCase())).not.toContain('authorization');

    // The Run locator lists the automation's runs.
    const runList = await listSearch().searchRuns.call(lookup({ resource: 'run', operation: 'approve', automationId: byId(automationId) }));
    expect(runList.results.map((r) => r.value).sort()).toEqual([byTitle.first, byTitle.second].sort());
    expect(runList.results[0]!.name).toMatch(/^waiting · \d{4}-\d\d-\d\d /);

    await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'run', operation: 'approve', automationId: byId(automationId), runId: byId(byTitle.first!), comment: 'fine' },
    });
    await runOk(server(), { type: AUTOMATION, parameters: { resource: 'run', operation: 'reject', automationId, runId: byTitle.second! } });
    await waitFor(async () => (await api().get(`/api/v1/projects/${project.id}/tasks`)).body.items.length === 1, 'the approved task');
    expect((await api().get(`/api/v1/projects/${project.id}/tasks`)).body.items.map((t: { text: string }) => t.text)).toEqual([
      'first: fine',
    ]);
    const rejected = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'run', operation: 'getMany', automationId, returnAll: true, filters: { status: 'rejected' } },
    });
    expect(rejected.map((r) => r.json.id)).toEqual([byTitle.second]);
    const limited = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'run', operation: 'getMany', automationId, returnAll: false, limit: 1 },
    });
    expect(limited).toHaveLength(1);
  });

  test('Call Inbound URL with its default body sends `{}` as JSON', async () => {
    const project = (
      await api().post(`/api/v1/workspaces/${server().workspaceId}/projects`, { contentType: 'text/plain', content: 'Default body' })
    ).body.item;
    const created = await api().post('/api/v1/automations', {
      workspaceId: server().workspaceId,
      name: 'Called with nothing',
      trigger: { type: 'webhook' },
      actions: [{ id: 'make', type: 'task.create', projectId: project.id, text: 'called: {{ trigger.title | default: "no title" }}' }],
    });
    const automationId = created.body.item.id;
    // No `body` parameter: the node's default, `{}`, as the editor shows it.
    const result = await runNode(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'trigger', automationId: byId(automationId) },
    });
    expect(result.error).toBeUndefined();
    expect(result.items.map((i) => i.json)).toEqual([{ automationId, ok: true, requestId: expect.any(String) }]);
    await waitFor(async () => (await api().get(`/api/v1/projects/${project.id}/tasks`)).body.items.length === 1, 'the task of the run');
    expect((await api().get(`/api/v1/projects/${project.id}/tasks`)).body.items.map((t: { text: string }) => t.text)).toEqual([
      'called: no title',
    ]);
  });

  test('Get and Get Many never output the inbound URL; Get Inbound URL does, and refuses as an AI tool', async () => {
    const created = await api().post('/api/v1/automations', {
      workspaceId: server().workspaceId,
      name: 'Secret door',
      trigger: { type: 'webhook' },
      actions: [],
    });
    const automationId = created.body.item.id;
    const { url, id: secretId } = created.body.item.webhook as { url: string; id: string };
    expect(url).toContain(secretId);

    const many = await runOk(server(), {
      type: AUTOMATION,
      parameters: {
        resource: 'automation',
        operation: 'getMany',
        workspaceId: byId(server().workspaceId),
        returnAll: true,
        simplify: false,
      },
    });
    const one = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'get', automationId: byId(automationId), simplify: false },
    });
    const simple = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'get', automationId: byId(automationId) },
    });
    for (const items of [many, one, simple]) {
      expect(JSON.stringify(items.map((i) => i.json))).not.toContain(secretId);
    }
    expect(one[0]!.json).toMatchObject({ id: automationId, name: 'Secret door', inboundUrl: { present: true, requiresToken: false } });
    expect(one[0]!.json).not.toHaveProperty('webhook');
    expect(simple[0]!.json).toEqual({
      id: automationId,
      workspaceId: server().workspaceId,
      name: 'Secret door',
      enabled: expect.any(Boolean),
      version: expect.any(Number),
      triggerType: 'webhook',
      actionCount: 0,
      updatedAt: expect.any(String),
      inboundUrl: { present: true, requiresToken: false },
    });

    const [inbound] = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'getInboundUrl', automationId: byId(automationId) },
    });
    expect(inbound!.json).toEqual({ automationId, url, requiresToken: false });

    const asTool = await runNode(server(), {
      type: `${AUTOMATION}Tool`,
      parameters: { resource: 'automation', operation: 'getInboundUrl', automationId: byId(automationId) },
    });
    expect(asTool.error?.message).toBe('Get Inbound URL is not available to AI agents');
    expect(asTool.items).toEqual([]);
    // The operation is hidden from the node's AI-tool variant in the editor.
    const operation = NODE_TYPES[AUTOMATION].description.properties.find(
      (p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'automation',
    );
    const option = (operation!.options as Array<{ value: string; displayOptions?: unknown }>).find((o) => o.value === 'getInboundUrl');
    expect(option!.displayOptions).toEqual({ hide: { '@tool': [true] } });
  });

  test('Get Many: Return All or a Limit; the Automation locator lists and filters automations', async () => {
    for (const name of ['Limit one', 'Limit two', 'Limit three']) {
      await api().post('/api/v1/automations', { workspaceId: server().workspaceId, name, trigger: { type: 'task.added' }, actions: [] });
    }
    const all = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'getMany', workspaceId: byId(server().workspaceId), returnAll: true },
    });
    expect(all.length).toBeGreaterThanOrEqual(3);
    const two = await runOk(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'getMany', workspaceId: byId(server().workspaceId), returnAll: false, limit: 2 },
    });
    expect(two).toHaveLength(2);
    expect(two.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);

    const found = await listSearch().searchAutomations.call(lookup({ resource: 'automation', operation: 'get' }), 'limit t');
    expect(found.results.map((r) => r.name).sort()).toEqual(['Limit three', 'Limit two']);
    expect(found.results.every((r) => all.some((i) => i.json.id === r.value))).toBe(true);
  });

  test('Run → Send Event resumes a run waiting on a Wait for Event step with its payload', async () => {
    const created = await api().post('/api/v1/automations', {
      workspaceId: server().workspaceId,
      name: 'Waits for n8n',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'paid', type: 'wait.event', event: 'payment.received' },
        { id: 'after', type: 'set', values: { amount: '{{ steps.paid.payload.amount }}' } },
      ],
    });
    expect(created.status).toBe(200);
    const automationId = created.body.item.id;
    const run = (await api().post(`/api/v1/automations/${automationId}/test`, { payload: {} })).body.item;
    expect(run.status).toBe('waiting');
    const wrong = await runNode(server(), {
      type: AUTOMATION,
      continueOnFail: true,
      parameters: {
        resource: 'run',
        operation: 'sendEvent',
        automationId: byId(automationId),
        runId: byId(run.id),
        event: 'payment.failed',
        payload: '{}',
      },
    });
    expect(wrong.items[0]!.json.error).toMatchObject({ code: 'CONFLICT', httpCode: '409' });
    const sent = await runOk(server(), {
      type: AUTOMATION,
      parameters: {
        resource: 'run',
        operation: 'sendEvent',
        automationId: byId(automationId),
        runId: byId(run.id),
        event: 'payment.received',
        payload: '{"amount": 42}',
      },
    });
    expect(sent[0]!.json).toMatchObject({ runId: run.id });
    const done = await waitFor(async () => {
      const item = (await api().get(`/api/v1/automations/${automationId}/runs/${run.id}`)).body.item;
      return item.status === 'completed' && item;
    }, 'the run to complete');
    expect(done.steps[1].output).toEqual({ amount: 42 });
  });

  test('an automation without an inbound URL is a clear node error', async () => {
    const created = await api().post('/api/v1/automations', {
      workspaceId: server().workspaceId,
      name: 'On add',
      trigger: { type: 'task.added' },
      actions: [],
    });
    const result = await runNode(server(), {
      type: AUTOMATION,
      parameters: { resource: 'automation', operation: 'trigger', automationId: created.body.item.id },
    });
    expect(result.error?.message).toBe('This automation has no inbound URL');
  });
});
