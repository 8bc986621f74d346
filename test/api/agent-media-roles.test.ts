import { FormData, request } from 'undici';
import { addUser, client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';

type Api = ReturnType<typeof client>;

/** Fresh resources for one call: an agent with a command, public access and knowledge, plus spare project and media. */
interface Fixture {
  agent: string;
  convo: string;
  project: string;
  media: string;
  spareProject: string;
  spareMedia: string;
}

const ROLES = ['Viewer', 'Participant', 'Collaborator', 'Owner'] as const;
type Who = (typeof ROLES)[number] | 'outsider';

/** One endpoint of the table: how to call it and the lowest role that may. */
interface Case {
  name: string;
  min: (typeof ROLES)[number];
  run(api: Api, fx: Fixture, token: string): Promise<{ status: number }>;
}

describe('role table for every agent and media endpoint', () => {
  let server: TestServer;
  let owner: Api;
  const tokens = {} as Record<Who, string>;

  async function uploadAs(token: string, name: string): Promise<{ status: number; body: any }> {
    const form = new FormData();
    form.append('file', new Blob([name], { type: 'text/plain' }), name);
    const res = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.statusCode, body: await res.body.json() };
  }

  async function download(token: string, mediaId: string): Promise<{ status: number }> {
    const res = await request(`${server.url}/api/v1/medias/${mediaId}/content`, {
      reset: true,
      headers: { authorization: `Bearer ${token}` },
    });
    await res.body.arrayBuffer();
    return { status: res.statusCode };
  }

  async function project(name: string): Promise<string> {
    const res = await owner.post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/markdown',
      content: `# ${name}`,
    });
    return res.body.item.id;
  }

  async function fixture(): Promise<Fixture> {
    const agent = (
      await owner.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Role agent',
        data: { type: 'agent', data: { commands: [{ id: 'cmd', name: 'Run', prompt: 'run {{ input }}' }] } },
      })
    ).body.item.id;
    await owner.put(`/api/v1/agents/${agent}/publicAccess`);
    const convo = (await owner.post(`/api/v1/agents/${agent}/convos`, { command: 'cmd' })).body.item.id;
    const p = await project('Known');
    const media = (await uploadAs(OWNER_TOKEN, 'known.txt')).body.item.id;
    await owner.post(`/api/v1/agents/${agent}/knowledge/project`, { projectId: p });
    await owner.post(`/api/v1/agents/${agent}/knowledge/media`, { mediaId: media });
    return {
      agent,
      convo,
      project: p,
      media,
      spareProject: await project('Spare'),
      spareMedia: (await uploadAs(OWNER_TOKEN, 'spare.txt')).body.item.id,
    };
  }

  /** Everything a denied call must leave as it was. */
  async function snapshot(fx: Fixture): Promise<unknown> {
    return {
      agent: (await owner.get(`/api/v1/agents/${fx.agent}`)).body,
      publicAgent: (await owner.get(`/api/v1/agents/${fx.agent}/public-agent`)).body,
      convos: (await owner.get(`/api/v1/agents/${fx.agent}/convos?limit=500`)).body,
      medias: (await owner.get(`/api/v1/folders/${server.workspaceId}/medias?limit=500`)).body,
      agents: (await owner.get(`/api/v1/folders/${server.workspaceId}/agents?limit=500`)).body.items.length,
    };
  }

  const writes: Case[] = [
    {
      name: 'POST /folders/{id}/agents',
      min: 'Collaborator',
      run: (api) => api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'New' }),
    },
    {
      name: 'POST /folders/{id}/agent-generate',
      min: 'Collaborator',
      run: (api) => api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'An agent' }),
    },
    {
      name: 'PATCH /agents/{id}',
      min: 'Collaborator',
      run: (api, fx) => api.patch(`/api/v1/agents/${fx.agent}`, { name: 'Renamed', data: { tone: 'formal' } }),
    },
    { name: 'DELETE /agents/{id}', min: 'Collaborator', run: (api, fx) => api.delete(`/api/v1/agents/${fx.agent}`) },
    { name: 'PUT /agents/{id}/publicAccess', min: 'Collaborator', run: (api, fx) => api.put(`/api/v1/agents/${fx.agent}/publicAccess`) },
    {
      name: 'DELETE /agents/{id}/publicAccess',
      min: 'Collaborator',
      run: (api, fx) => api.delete(`/api/v1/agents/${fx.agent}/publicAccess`),
    },
    {
      name: 'PATCH /agents/{id}/public-agent',
      min: 'Collaborator',
      run: (api, fx) => api.patch(`/api/v1/agents/${fx.agent}/public-agent`, { preferences: { theme: 'dark' } }),
    },
    {
      name: 'POST /agents/{id}/knowledge/project',
      min: 'Collaborator',
      run: (api, fx) => api.post(`/api/v1/agents/${fx.agent}/knowledge/project`, { projectId: fx.spareProject }),
    },
    {
      name: 'POST /agents/{id}/knowledge/media',
      min: 'Collaborator',
      run: (api, fx) => api.post(`/api/v1/agents/${fx.agent}/knowledge/media`, { mediaId: fx.spareMedia }),
    },
    {
      name: 'DELETE /agents/{id}/knowledge/project/{projectId}',
      min: 'Collaborator',
      run: (api, fx) => api.delete(`/api/v1/agents/${fx.agent}/knowledge/project/${fx.project}`),
    },
    {
      name: 'DELETE /agents/{id}/knowledge/media/{mediaId}',
      min: 'Collaborator',
      run: (api, fx) => api.delete(`/api/v1/agents/${fx.agent}/knowledge/media/${fx.media}`),
    },
    {
      name: 'POST /agents/{id}/convos',
      min: 'Participant',
      run: (api, fx) => api.post(`/api/v1/agents/${fx.agent}/convos`, { command: 'Run', input: 'x' }),
    },
    { name: 'POST /folders/{id}/medias', min: 'Collaborator', run: (_api, _fx, token) => uploadAs(token, 'upload.txt') },
    { name: 'DELETE /medias/{id}', min: 'Collaborator', run: (api, fx) => api.delete(`/api/v1/medias/${fx.spareMedia}`) },
  ];

  const reads: Case[] = [
    { name: 'GET /folders/{id}/agents', min: 'Viewer', run: (api) => api.get(`/api/v1/folders/${server.workspaceId}/agents`) },
    { name: 'GET /agents/{id}', min: 'Viewer', run: (api, fx) => api.get(`/api/v1/agents/${fx.agent}`) },
    { name: 'GET /agents/{id}/public-agent', min: 'Viewer', run: (api, fx) => api.get(`/api/v1/agents/${fx.agent}/public-agent`) },
    { name: 'GET /agents/{id}/convos', min: 'Viewer', run: (api, fx) => api.get(`/api/v1/agents/${fx.agent}/convos`) },
    {
      name: 'GET /agents/{id}/convos/{convoId}',
      min: 'Viewer',
      run: (api, fx) => api.get(`/api/v1/agents/${fx.agent}/convos/${fx.convo}`),
    },
    { name: 'GET /folders/{id}/medias', min: 'Viewer', run: (api) => api.get(`/api/v1/folders/${server.workspaceId}/medias`) },
    { name: 'GET /medias/{id}', min: 'Viewer', run: (api, fx) => api.get(`/api/v1/medias/${fx.media}`) },
    { name: 'GET /medias/{id}/content', min: 'Viewer', run: (_api, fx, token) => download(token, fx.media) },
  ];

  function expected(who: Who, min: Case['min']): number {
    if (who === 'outsider') return 404;
    return ROLES.indexOf(who) >= ROLES.indexOf(min) ? 200 : 403;
  }

  beforeAll(async () => {
    server = await startServer();
    owner = client(server, OWNER_TOKEN);
    for (const role of ROLES) {
      tokens[role] =
        role === 'Owner' ? OWNER_TOKEN : addUser(server, `role-${role.toLowerCase()}`, { workspaceId: server.workspaceId, role });
    }
    tokens.outsider = addUser(server, 'role-outsider');
  });
  afterAll(() => server.close());

  test.each(writes.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const seen: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const who of [...ROLES, 'outsider'] as Who[]) {
      const fx = await fixture();
      const before = await snapshot(fx);
      const res = await c.run(client(server, tokens[who]), fx, tokens[who]);
      seen[who] = res.status;
      want[who] = expected(who, c.min);
      if (res.status !== 200) expect(await snapshot(fx)).toEqual(before);
    }
    expect(seen).toEqual(want);
  });

  test.each(reads.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const fx = await fixture();
    const seen: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const who of [...ROLES, 'outsider'] as Who[]) {
      seen[who] = (await c.run(client(server, tokens[who]), fx, tokens[who])).status;
      want[who] = expected(who, c.min);
    }
    expect(seen).toEqual(want);
  });
});
