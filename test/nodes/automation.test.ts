import { client } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { byId, runNode, runOk, useTaskspaceServer } from './harness';

const AUTOMATION = 'n8n-nodes-taskspace.taskspaceAutomation';
const server = useTaskspaceServer();
const api = () => client(server(), server().token);

/** The Automation node drives the embedded engine from n8n: list, call, runs, approve and reject. */
describe('Taskspace Automation node', () => {
	test('get many, call the inbound URL, list waiting runs, approve one and reject another', async () => {
		const project = (await api().post(`/api/v1/workspaces/${server().workspaceId}/projects`, { contentType: 'text/plain', content: 'From n8n' })).body.item;
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

		const listed = await runOk(server(), { type: AUTOMATION, parameters: { resource: 'automation', operation: 'getMany', workspaceId: byId(server().workspaceId) } });
		expect(listed.map((i) => i.json.id)).toContain(automationId);

		const calls = await runOk(server(), {
			type: AUTOMATION,
			input: [{ json: { title: 'first' } }, { json: { title: 'second' } }],
			parameters: { resource: 'automation', operation: 'trigger', automationId, body: '={{ JSON.stringify({ title: $json.title }) }}' },
		});
		expect(calls.map((c) => c.json)).toEqual([
			{ automationId, ok: true, requestId: expect.any(String) },
			{ automationId, ok: true, requestId: expect.any(String) },
		]);

		const waiting = await waitFor(async () => {
			const runs = await runOk(server(), { type: AUTOMATION, parameters: { resource: 'run', operation: 'getMany', automationId, returnAll: true, filters: { status: 'waiting' } } });
			return runs.length === 2 && runs;
		}, 'two waiting runs');
		const byTitle = Object.fromEntries(waiting.map((r) => [(r.json.trigger as { variables: { title: string } }).variables.title, String(r.json.id)]));
		await runOk(server(), { type: AUTOMATION, parameters: { resource: 'run', operation: 'approve', automationId, runId: byTitle.first!, comment: 'fine' } });
		await runOk(server(), { type: AUTOMATION, parameters: { resource: 'run', operation: 'reject', automationId, runId: byTitle.second! } });
		await waitFor(async () => (await api().get(`/api/v1/projects/${project.id}/tasks`)).body.items.length === 1, 'the approved task');
		expect((await api().get(`/api/v1/projects/${project.id}/tasks`)).body.items.map((t: { text: string }) => t.text)).toEqual(['first: fine']);
		const rejected = await runOk(server(), { type: AUTOMATION, parameters: { resource: 'run', operation: 'getMany', automationId, returnAll: true, filters: { status: 'rejected' } } });
		expect(rejected.map((r) => r.json.id)).toEqual([byTitle.second]);
		const limited = await runOk(server(), { type: AUTOMATION, parameters: { resource: 'run', operation: 'getMany', automationId, returnAll: false, limit: 1 } });
		expect(limited).toHaveLength(1);
	});

	test('an automation without an inbound URL is a clear node error', async () => {
		const created = await api().post('/api/v1/automations', { workspaceId: server().workspaceId, name: 'On add', trigger: { type: 'task.added' }, actions: [] });
		const result = await runNode(server(), { type: AUTOMATION, parameters: { resource: 'automation', operation: 'trigger', automationId: created.body.item.id } });
		expect(result.error?.message).toBe('This automation has no inbound URL');
	});
});
