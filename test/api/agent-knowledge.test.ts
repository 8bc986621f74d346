import { FormData, request } from 'undici';
import { client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

type Api = ReturnType<typeof client>;

/** Creates a project from markdown in a workspace's home folder and returns its id. */
async function createProject(api: Api, workspaceId: string, name: string): Promise<string> {
  const res = await api.post(`/api/v1/workspaces/${workspaceId}/projects`, {
    contentType: 'text/markdown',
    content: `# ${name}\n\n- first task`,
  });
  expect(res.status).toBe(200);
  return res.body.item.id;
}

/** Uploads a small text file to a folder and returns the media id. */
async function uploadMedia(server: TestServer, folderId: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([`content of ${name}`], { type: 'text/plain' }), name);
  const res = await request(`${server.url}/api/v1/folders/${folderId}/medias`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OWNER_TOKEN}` },
    body: form,
  });
  const body = (await res.body.json()) as { item: { id: string } };
  expect(res.statusCode).toBe(200);
  return body.item.id;
}

describe('agent knowledge: projects and media', () => {
  let server: TestServer;
  let api: Api;
  let otherWorkspace: string;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
    const out = runCli(server.dataDir, 'workspace', 'create', 'Elsewhere', '--owner', 'owner').out;
    otherWorkspace = /created workspace (\S+)/.exec(out)![1]!;
  });
  afterAll(() => server.close());

  async function newAgent(name = 'Knower'): Promise<any> {
    return (await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name })).body.item;
  }

  test('attaching a project and a media item answers the agent with its knowledge; attaching twice changes nothing', async () => {
    const agent = await newAgent();
    const project = await createProject(api, server.workspaceId, 'Handbook');
    const media = await uploadMedia(server, server.workspaceId, 'faq.txt');
    const p = await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project });
    expect(p.status).toBe(200);
    expect(p.body).toEqual({ ok: true, item: { ...agent, knowledge: { projects: [project], medias: [] }, updatedAt: expect.any(String) } });
    const m = await api.post(`/api/v1/agents/${agent.id}/knowledge/media`, { mediaId: media });
    expect(m.body).toEqual({
      ok: true,
      item: { ...agent, knowledge: { projects: [project], medias: [media] }, updatedAt: expect.any(String) },
    });
    const again = await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project });
    expect(again.status).toBe(200);
    expect(again.body.item.knowledge).toEqual({ projects: [project], medias: [media] });
    const second = await createProject(api, server.workspaceId, 'Second');
    const more = await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: second });
    expect(more.body.item.knowledge.projects).toEqual([project, second]);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge).toEqual({ projects: [project, second], medias: [media] });
  });

  test("a change of knowledge moves the agent's updatedAt; an idempotent attach does not", async () => {
    const agent = await newAgent();
    const project = await createProject(api, server.workspaceId, 'Clocked');
    const db = dbOf(server);
    const epoch = '1970-01-01T00:00:00.000Z';
    const reset = () => db.run('UPDATE agents SET updated_at = 0 WHERE id = ?', agent.id);
    await reset();
    expect((await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project })).body.item.updatedAt).not.toBe(epoch);
    await reset();
    expect((await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project })).body.item.updatedAt).toBe(epoch);
    await api.delete(`/api/v1/agents/${agent.id}/knowledge/project/${project}`);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.updatedAt).not.toBe(epoch);
  });

  test('the body needs the id: required, at least 1 character', async () => {
    const agent = await newAgent();
    for (const [kind, key] of [
      ['project', 'projectId'],
      ['media', 'mediaId'],
    ] as const) {
      const missing = await api.post(`/api/v1/agents/${agent.id}/knowledge/${kind}`, {});
      expect(missing.status).toBe(400);
      expect(missing.body.error.details).toEqual({ field: key, reason: 'required' });
      const empty = await api.post(`/api/v1/agents/${agent.id}/knowledge/${kind}`, { [key]: '' });
      expect(empty.body.error.details).toEqual({ field: key, reason: 'too_short' });
    }
  });

  test('unknown ids and resources of another workspace are 404; nothing is attached', async () => {
    const agent = await newAgent();
    const foreignProject = await createProject(api, otherWorkspace, 'Foreign');
    const foreignMedia = await uploadMedia(server, otherWorkspace, 'foreign.txt');
    const cases: [string, Record<string, string>][] = [
      ['project', { projectId: 'nope' }],
      ['project', { projectId: foreignProject }],
      ['media', { mediaId: 'nope' }],
      ['media', { mediaId: foreignMedia }],
    ];
    for (const [kind, body] of cases) {
      const res = await api.post(`/api/v1/agents/${agent.id}/knowledge/${kind}`, body);
      expect({ kind, body, status: res.status, code: res.body.error?.code }).toEqual({ kind, body, status: 404, code: 'NOT_FOUND' });
    }
    expect((await api.post('/api/v1/agents/nope/knowledge/project', { projectId: foreignProject })).status).toBe(404);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge).toEqual({ projects: [], medias: [] });
  });

  test('detaching answers {ok}; detaching what is not attached is 404', async () => {
    const agent = await newAgent();
    const project = await createProject(api, server.workspaceId, 'Detach');
    const media = await uploadMedia(server, server.workspaceId, 'detach.txt');
    await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project });
    await api.post(`/api/v1/agents/${agent.id}/knowledge/media`, { mediaId: media });
    const p = await api.delete(`/api/v1/agents/${agent.id}/knowledge/project/${project}`);
    expect(p.status).toBe(200);
    expect(p.body).toEqual({ ok: true });
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge).toEqual({ projects: [], medias: [media] });
    const m = await api.delete(`/api/v1/agents/${agent.id}/knowledge/media/${media}`);
    expect(m.body).toEqual({ ok: true });
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge).toEqual({ projects: [], medias: [] });
    const twice = await api.delete(`/api/v1/agents/${agent.id}/knowledge/project/${project}`);
    expect(twice.status).toBe(404);
    expect(twice.body.error.message).toBe(`project '${project}' is not in the knowledge of agent '${agent.id}'`);
    expect((await api.delete(`/api/v1/agents/${agent.id}/knowledge/media/${media}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/agents/nope/knowledge/media/${media}`)).status).toBe(404);
  });

  test('deleting a media item drops it from every agent', async () => {
    const a = await newAgent('A');
    const b = await newAgent('B');
    const media = await uploadMedia(server, server.workspaceId, 'shared.txt');
    const kept = await uploadMedia(server, server.workspaceId, 'kept.txt');
    for (const agent of [a, b]) {
      await api.post(`/api/v1/agents/${agent.id}/knowledge/media`, { mediaId: media });
      await api.post(`/api/v1/agents/${agent.id}/knowledge/media`, { mediaId: kept });
    }
    expect((await api.delete(`/api/v1/medias/${media}`)).status).toBe(200);
    for (const agent of [a, b]) {
      expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge.medias).toEqual([kept]);
    }
  });

  test('deleting a project (by any path) drops it from every agent', async () => {
    const agent = await newAgent();
    const project = await createProject(api, server.workspaceId, 'Short-lived');
    await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project });
    // No project delete endpoint exists (spec 4.2); a folder or workspace cascade deletes projects the same way.
    await dbOf(server).run('DELETE FROM projects WHERE id = ?', project);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge.projects).toEqual([]);
    const rows = await dbOf(server).get("SELECT COUNT(*) AS n FROM agent_knowledge WHERE kind = 'project' AND ref_id = ?", project);
    expect(rows).toEqual({ n: 0 });
  });

  test('knowledge survives a restart', async () => {
    const agent = await newAgent('Persistent');
    const project = await createProject(api, server.workspaceId, 'Kept');
    await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project });
    await server.close();
    server = await startServer({ dataDir: server.dataDir });
    api = client(server, OWNER_TOKEN);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge).toEqual({ projects: [project], medias: [] });
  });
});
