import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeParameters } from 'n8n-workflow';

import { addUser, client } from '../helpers/server';
import { byId, byUrl, NODE_TYPES, runOk, setup, useTaskspaceServer } from './harness';

const server = useTaskspaceServer();
const api = () => client(server(), server().token);

/** n8n-core's load-options context for a node whose current parameters are `parameters`. */
function lookup(type: string, parameters: INodeParameters): ILoadOptionsFunctions {
  const s = setup(server(), { type, parameters });
  // The editor sends the node's full parameters (defaults included), as the Workflow holds them.
  s.additionalData.currentNodeParameters = s.node.parameters;
  return new LoadOptionsContext(s.workflow, s.node, s.additionalData, 'parameters') as unknown as ILoadOptionsFunctions;
}

const methods = (type: string) => NODE_TYPES[type].methods!;
const TASK = 'n8n-nodes-taskspace.taskspaceTask';
const PROJECT = 'n8n-nodes-taskspace.taskspaceProject';
const AGENT = 'n8n-nodes-taskspace.taskspaceAgent';
const MEDIA = 'n8n-nodes-taskspace.taskspaceMedia';

describe('resource locator list search and load options', () => {
  let projectId: string;
  let folderId: string;
  beforeAll(async () => {
    const folder = await api().post(`/api/v1/workspaces/${server().workspaceId}/folders`, { name: 'Research' });
    folderId = folder.body.item.id;
    const project = await api().post('/api/v1/projects', {
      folderId,
      contentType: 'text/markdown',
      content: '# Roadmap\n- Alpha\n- Beta\n  - Beta two',
    });
    projectId = project.body.item.id;
    await api().post('/api/v1/projects', { folderId, contentType: 'text/markdown', content: '# Budget' });
  });

  test('workspaces, folders (with the home folder) and projects, filtered by name', async () => {
    const ctx = lookup(PROJECT, {});
    const workspaces = await methods(PROJECT).listSearch!.searchWorkspaces.call(ctx);
    expect(workspaces.results).toEqual([{ name: 'My workspace', value: server().workspaceId }]);
    const folders = await methods(PROJECT).listSearch!.searchFolders.call(ctx, 'research');
    expect(folders.results).toEqual([{ name: 'My workspace / Research', value: folderId }]);
    const home = await methods(PROJECT).listSearch!.searchFolders.call(ctx, 'home');
    expect(home.results.map((r) => r.value)).toEqual([server().workspaceId]);
    const projects = await methods(PROJECT).listSearch!.searchProjects.call(ctx, 'road');
    expect(projects.results).toEqual([{ name: 'Roadmap', value: projectId }]);
  });

  test('tasks of the project picked in the node (any locator mode), filtered by text', async () => {
    const byIdCtx = lookup(TASK, { projectId: byId(projectId) });
    const all = await methods(TASK).listSearch!.searchTasks.call(byIdCtx);
    expect(all.results.map((r) => r.name)).toEqual(['Alpha', 'Beta', 'Beta two']);
    const byUrlCtx = lookup(TASK, { projectId: byUrl(`${server().url}/api/v1/projects/${projectId}`) });
    const beta = await methods(TASK).listSearch!.searchTasks.call(byUrlCtx, 'beta');
    expect(beta.results.map((r) => r.name)).toEqual(['Beta', 'Beta two']);
    const none = await methods(TASK).listSearch!.searchTasks.call(lookup(TASK, {}));
    expect(none.results).toEqual([]);
  });

  test('members, fields and templates for options; agents for the agent locator', async () => {
    addUser(server(), 'gina', { workspaceId: server().workspaceId, role: 'Participant' });
    await api().put(`/api/v1/projects/${projectId}/members`, { handles: ['gina'] });
    const members = await methods(TASK).loadOptions!.getMembers.call(lookup(TASK, { projectId: byId(projectId) }));
    expect(members.map((m) => m.value)).toContain('gina');

    const field = await api().post(`/api/v1/projects/${projectId}/fields`, { name: 'Effort', type: 'number' });
    const fields = await methods(TASK).loadOptions!.getFields.call(lookup(TASK, { projectId: byId(projectId) }));
    expect(fields).toEqual([{ name: 'Effort (number)', value: field.body.item.id }]);

    const template = await api().post(`/api/v1/projects/${projectId}/copy`, {
      folderId,
      projectTitle: 'Roadmap template',
      isTemplate: true,
    });
    const templates = await methods(PROJECT).loadOptions!.getTemplates.call(lookup(PROJECT, { folderId: byId(folderId) }));
    expect(templates).toEqual([{ name: 'Roadmap template', value: template.body.item.id }]);

    const agent = await api().post(`/api/v1/folders/${folderId}/agents`, { name: 'Scout' });
    const agents = await methods(AGENT).listSearch!.searchAgents.call(lookup(AGENT, {}), 'scout');
    expect(agents.results).toEqual([{ name: 'Scout (My workspace / Research)', value: agent.body.item.id }]);
  });

  test('media and conversations have searchable lists; the media locator serves Media and Agent knowledge', async () => {
    const [uploaded] = await runOk(server(), {
      type: MEDIA,
      input: [
        { json: {}, binary: { data: { data: Buffer.from('hello').toString('base64'), mimeType: 'text/plain', fileName: 'brief.txt' } } },
      ],
      parameters: { resource: 'media', operation: 'upload', folderId: byId(folderId), binaryPropertyName: 'data' },
    });
    for (const type of [MEDIA, AGENT]) {
      const found = await methods(type).listSearch!.searchMedia.call(lookup(type, {}), 'brief');
      expect(found.results).toEqual([{ name: 'brief.txt (My workspace / Research)', value: uploaded.json.id }]);
    }
    const media = NODE_TYPES[MEDIA].description.properties.find((p) => p.name === 'mediaId')!;
    expect(media.type).toBe('resourceLocator');

    const [created] = await runOk(server(), {
      type: AGENT,
      parameters: {
        resource: 'agent',
        operation: 'create',
        folderId: byId(folderId),
        name: 'Talker',
        agentData: { commands: { command: [{ name: 'say', prompt: 'Say [[input]]', mode: 'default' }] } },
      },
    });
    const agent = created.json as { id: string };
    const [convo] = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'agent', operation: 'runCommand', agentId: byId(agent.id), command: 'say', input: 'hi' },
    });
    const convos = await methods(AGENT).listSearch!.searchConversations.call(lookup(AGENT, { agentId: byId(agent.id) }));
    expect(convos.results.map((r) => r.value)).toEqual([convo.json.id]);
    expect((await methods(AGENT).listSearch!.searchConversations.call(lookup(AGENT, {}))).results).toEqual([]);
    const [one] = await runOk(server(), {
      type: AGENT,
      parameters: {
        resource: 'conversation',
        operation: 'get',
        agentId: byId(agent.id),
        convoId: { __rl: true, mode: 'list', value: convo.json.id as string },
      },
    });
    expect(one.json.id).toBe(convo.json.id);
    const [simple] = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'conversation', operation: 'getMany', agentId: byId(agent.id), returnAll: true },
    });
    expect(Object.keys(simple.json).sort()).toEqual([
      'agentId',
      'answer',
      'createdAt',
      'id',
      'messageCount',
      'status',
      'title',
      'updatedAt',
    ]);
  });

  test('the Timezone option of Date → Set lists the IANA zones', () => {
    const set = NODE_TYPES[TASK].description.properties.find(
      (p) => p.name === 'options' && p.displayOptions?.show?.resource?.[0] === 'date',
    )!;
    const zone = (set.options as Array<{ name: string; type?: string; options?: Array<{ value: string }> }>).find(
      (o) => o.name === 'timezone',
    )!;
    expect(zone.type).toBe('options');
    const values = zone.options!.map((o) => o.value);
    expect(values).toEqual(expect.arrayContaining(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo']));
    expect(values.length).toBeGreaterThan(300);
  });

  test('search runs on the service: a project on page 6 and a task past the first 200 are found', async () => {
    for (let n = 0; n < 520; n++) {
      await api().post(`/api/v1/workspaces/${server().workspaceId}/projects`, {
        contentType: 'text/plain',
        content: n === 519 ? 'Needle project' : `Hay ${n}`,
      });
    }
    const ctx = lookup(PROJECT, {});
    const found = await methods(PROJECT).listSearch!.searchProjects.call(ctx, 'needle');
    expect(found.results.map((r) => r.name)).toEqual(['Needle project']);
    const big = (
      await api().post(`/api/v1/workspaces/${server().workspaceId}/projects`, {
        contentType: 'text/plain',
        content: 'Big\n' + Array.from({ length: 450 }, (_, n) => (n === 449 ? 'the needle task' : `straw ${n}`)).join('\n'),
      })
    ).body.item;
    const tasks = await methods(TASK).listSearch!.searchTasks.call(lookup(TASK, { projectId: byId(big.id) }), 'NEEDLE');
    expect(tasks.results.map((r) => r.name)).toEqual(['the needle task']);
  });
});
