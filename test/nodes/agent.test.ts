import { client } from '../helpers/server';
import { byId, byUrl, runNode, runOk, useTaskspaceServer } from './harness';

const AGENT = 'n8n-nodes-taskspace.taskspaceAgent';
const server = useTaskspaceServer();
const api = () => client(server(), server().token);

async function createAgent(name: string): Promise<string> {
  const [created] = await runOk(server(), {
    type: AGENT,
    parameters: {
      resource: 'agent',
      operation: 'create',
      folderId: byId(server().workspaceId),
      name,
      agentData: {
        description: 'Summarises things',
        tone: 'friendly',
        language: 'en',
        avatar: '🤖',
        inputPlaceholder: 'Paste the text',
        commands: { command: [{ name: 'summarize', prompt: 'Summarize: {{ input }}', mode: 'plan-and-execute-v1' }] },
      },
    },
  });
  return created.json.id as string;
}

describe('Taskspace Agent node', () => {
  test('agent › create (name + data), get, get many, update, delete', async () => {
    const agentId = await createAgent('Summarizer');
    const stored = (await api().get(`/api/v1/agents/${agentId}`)).body.item;
    expect(stored).toMatchObject({
      name: 'Summarizer',
      space_id: server().workspaceId,
      data: {
        description: 'Summarises things',
        tone: 'friendly',
        language: 'en',
        inputPlaceholder: 'Paste the text',
        avatar: { type: 'emoji', data: { value: '🤖' } },
      },
    });
    expect(stored.data.commands.map((c: { name: string; mode: string }) => [c.name, c.mode])).toEqual([
      ['summarize', 'plan-and-execute-v1'],
    ]);

    const [got] = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'agent', operation: 'get', agentId: byUrl(`${server().url}/api/v1/agents/${agentId}`) },
    });
    expect(got.json.id).toBe(agentId);
    const many = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'agent', operation: 'getMany', folderId: byId(server().workspaceId), returnAll: true },
    });
    expect(many.map((i) => i.json.id)).toContain(agentId);

    await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'agent', operation: 'update', agentId: byId(agentId), name: 'Digest', updateFields: { tone: 'formal' } },
    });
    const updated = (await api().get(`/api/v1/agents/${agentId}`)).body.item;
    expect(updated).toMatchObject({ name: 'Digest', data: { tone: 'formal', description: 'Summarises things' } });

    await runOk(server(), { type: AGENT, parameters: { resource: 'agent', operation: 'delete', agentId: byId(agentId) } });
    expect((await api().get(`/api/v1/agents/${agentId}`)).status).toBe(404);
  });

  test('agent › generate from a prompt; run command; conversation › get many and get', async () => {
    const [generated] = await runOk(server(), {
      type: AGENT,
      parameters: {
        resource: 'agent',
        operation: 'generate',
        folderId: byId(server().workspaceId),
        text: 'An assistant that triages support tickets',
      },
    });
    expect((await api().get(`/api/v1/agents/${generated.json.id}`)).status).toBe(200);

    const agentId = await createAgent('Runner');
    const [convo] = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'agent', operation: 'runCommand', agentId: byId(agentId), command: 'summarize', input: 'A long text' },
    });
    expect(convo.json).toMatchObject({ space_agent_id: agentId });
    const convos = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'conversation', operation: 'getMany', agentId: byId(agentId), returnAll: true },
    });
    expect(convos.map((i) => i.json.id)).toEqual([convo.json.id]);
    const [one] = await runOk(server(), {
      type: AGENT,
      parameters: { resource: 'conversation', operation: 'get', agentId: byId(agentId), convoId: String(convo.json.id) },
    });
    expect(one.json.id).toBe(convo.json.id);
    expect((await api().get(`/api/v1/agents/${agentId}/convos/${convo.json.id}`)).body.item.id).toBe(convo.json.id);
  });

  test('agent › the [[input]] placeholder survives the editor and is filled by the service; Simplify returns the answer', async () => {
    const [agent] = await runOk(server(), {
      type: AGENT,
      parameters: {
        resource: 'agent',
        operation: 'create',
        folderId: byId(server().workspaceId),
        name: 'Bracket',
        agentData: { commands: { command: [{ name: 'echo', prompt: 'Check [[input]] twice', mode: 'default' }] } },
      },
    });
    const [full] = await runOk(server(), {
      type: AGENT,
      parameters: {
        resource: 'agent',
        operation: 'runCommand',
        agentId: byId(String(agent.json.id)),
        command: 'echo',
        input: 'the invoice',
      },
    });
    const messages = (full.json.data as { messages: { role: string; content: string }[] }).messages;
    expect(messages.find((m) => m.role === 'user')!.content).toContain('Check the invoice twice');
    const [simple] = await runOk(server(), {
      type: AGENT,
      parameters: {
        resource: 'agent',
        operation: 'runCommand',
        agentId: byId(String(agent.json.id)),
        command: 'echo',
        input: 'the invoice',
        simplify: true,
      },
    });
    expect(Object.keys(simple.json).sort()).toEqual(['agentId', 'answer', 'conversationId', 'status']);
    expect(simple.json).toMatchObject({ agentId: agent.json.id, status: 'idle' });
    expect(typeof simple.json.answer).toBe('string');
    expect(simple.json.answer).toBe(messages.find((m) => m.role === 'assistant')!.content.replace(/the invoice/g, 'the invoice'));
  });

  test('public access › enable, get, update, disable', async () => {
    const agentId = await createAgent('Public');
    const base = { resource: 'publicAccess', agentId: byId(agentId) };
    const [enabled] = await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'enable' } });
    expect(String(enabled.json.publicUrl)).toMatch(/^http/);
    await runOk(server(), {
      type: AGENT,
      parameters: { ...base, operation: 'update', preferences: { theme: 'auto', mode: 'chatbot', hideBranding: true } },
    });
    const [got] = await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'get' } });
    expect(got.json).toMatchObject({
      space_agent_id: agentId,
      preferences: { theme: 'auto', mode: 'chatbot', hideBranding: true },
      publicUrl: enabled.json.publicUrl,
    });
    await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'disable' } });
    expect((await api().get(`/api/v1/agents/${agentId}/public-agent`)).status).toBe(404);
  });

  test('knowledge › add and remove a project and a media item', async () => {
    const agentId = await createAgent('Knower');
    const project = await api().post('/api/v1/projects', {
      folderId: server().workspaceId,
      contentType: 'text/markdown',
      content: '# Facts',
    });
    const projectId = project.body.item.id;
    const base = { resource: 'knowledge', agentId: byId(agentId) };
    await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'add', kind: 'project', projectId: byId(projectId) } });
    expect((await api().get(`/api/v1/agents/${agentId}`)).body.item.knowledge.projects).toEqual([projectId]);
    await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'remove', kind: 'project', projectId: byId(projectId) } });
    expect((await api().get(`/api/v1/agents/${agentId}`)).body.item.knowledge.projects).toEqual([]);

    const upload = await runOk(server(), {
      type: 'n8n-nodes-taskspace.taskspaceMedia',
      input: [{ json: {}, binary: { data: { data: Buffer.from('hello').toString('base64'), mimeType: 'text/plain', fileName: 'k.txt' } } }],
      parameters: { resource: 'media', operation: 'upload', folderId: byId(server().workspaceId), binaryPropertyName: 'data' },
    });
    const mediaId = upload[0].json.id as string;
    await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'add', kind: 'media', mediaId } });
    expect((await api().get(`/api/v1/agents/${agentId}`)).body.item.knowledge.medias).toEqual([mediaId]);
    await runOk(server(), { type: AGENT, parameters: { ...base, operation: 'remove', kind: 'media', mediaId } });
    expect((await api().get(`/api/v1/agents/${agentId}`)).body.item.knowledge.medias).toEqual([]);
  });

  test('an unknown command is the service error, reported by the node', async () => {
    const agentId = await createAgent('Strict');
    const result = await runNode(server(), {
      type: AGENT,
      parameters: { resource: 'agent', operation: 'runCommand', agentId: byId(agentId), command: 'nope' },
    });
    expect(result.error?.name).toBe('NodeApiError');
    expect(Number(result.error?.httpCode)).toBeGreaterThanOrEqual(400);
  });
});
