import { addUser, client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';

/**
 * The role table for every project and field endpoint: each caller kind against each endpoint.
 * Below the needed role → 403 FORBIDDEN; not a member of the workspace → 404 NOT_FOUND.
 */
const CALLERS = ['Viewer', 'Participant', 'Collaborator', 'Owner', 'outsider'] as const;
type Caller = (typeof CALLERS)[number];
const RANK: Record<Exclude<Caller, 'outsider'>, number> = { Viewer: 0, Participant: 1, Collaborator: 2, Owner: 3 };

interface Endpoint {
  name: string;
  min: Exclude<Caller, 'outsider'>;
  method: 'get' | 'post' | 'put' | 'delete';
  path: () => string;
  body?: (caller: Caller) => unknown;
  /** Puts the project back after a successful call (e.g. restore after complete). */
  reset?: () => Promise<void>;
}

describe('roles on project and field endpoints', () => {
  let server: TestServer;
  let owner: ReturnType<typeof client>;
  const tokens = {} as Record<Caller, string>;
  let projectId: string;
  let taskId: string;
  let fieldId: string;
  let templateId: string;
  let disposableId: string;
  const createDisposable = async () => {
    disposableId = (
      await owner.post('/api/v1/projects', { folderId: server.workspaceId, contentType: 'text/markdown', content: '# Doomed\n- t' })
    ).body.item.id;
  };

  beforeAll(async () => {
    server = await startServer();
    owner = client(server, OWNER_TOKEN);
    tokens.Owner = OWNER_TOKEN;
    for (const role of ['Viewer', 'Participant', 'Collaborator'] as const) {
      tokens[role] = addUser(server, role.toLowerCase(), { workspaceId: server.workspaceId, role });
    }
    tokens.outsider = addUser(server, 'outsider');
    const create = async (content: string, isTemplate = false) =>
      (await owner.post('/api/v1/projects', { folderId: server.workspaceId, contentType: 'text/markdown', content, isTemplate })).body.item
        .id as string;
    projectId = await create('# Roles\n- task');
    templateId = await create('# Template\n- step', true);
    taskId = (await owner.get(`/api/v1/projects/${projectId}/tasks`)).body.items[0].id;
    fieldId = (await owner.post(`/api/v1/projects/${projectId}/fields`, { name: 'Level', type: 'number' })).body.item.id;
    await owner.put(`/api/v1/projects/${projectId}/shareLink`);
    await createDisposable();
  });
  afterAll(() => server.close());

  const content = { contentType: 'text/markdown', content: '# Made\n- x' };
  const endpoints: Endpoint[] = [
    { name: 'GET project', min: 'Viewer', method: 'get', path: () => `/api/v1/projects/${projectId}` },
    { name: 'GET members', min: 'Viewer', method: 'get', path: () => `/api/v1/projects/${projectId}/members` },
    { name: 'GET fields', min: 'Viewer', method: 'get', path: () => `/api/v1/projects/${projectId}/fields` },
    {
      name: 'GET field value',
      min: 'Viewer',
      method: 'get',
      path: () => `/api/v1/projects/${projectId}/tasks/${taskId}/fields/${fieldId}`,
    },
    { name: 'GET folder projects', min: 'Viewer', method: 'get', path: () => `/api/v1/folders/${server.workspaceId}/projects` },
    { name: 'GET folder templates', min: 'Viewer', method: 'get', path: () => `/api/v1/folders/${server.workspaceId}/project-templates` },
    {
      name: 'PUT field value',
      min: 'Participant',
      method: 'put',
      path: () => `/api/v1/projects/${projectId}/tasks/${taskId}/fields/${fieldId}`,
      body: () => ({ value: 1 }),
    },
    {
      name: 'DELETE field value',
      min: 'Participant',
      method: 'delete',
      path: () => `/api/v1/projects/${projectId}/tasks/${taskId}/fields/${fieldId}`,
    },
    {
      name: 'POST project',
      min: 'Collaborator',
      method: 'post',
      path: () => '/api/v1/projects',
      body: () => ({ folderId: server.workspaceId, ...content }),
    },
    {
      name: 'POST workspace project',
      min: 'Collaborator',
      method: 'post',
      path: () => `/api/v1/workspaces/${server.workspaceId}/projects`,
      body: () => content,
    },
    {
      name: 'POST copy',
      min: 'Collaborator',
      method: 'post',
      path: () => `/api/v1/projects/${projectId}/copy`,
      body: () => ({ folderId: server.workspaceId }),
    },
    {
      name: 'POST from-template',
      min: 'Collaborator',
      method: 'post',
      path: () => '/api/v1/projects/from-template',
      body: () => ({ folderId: server.workspaceId, templateId }),
    },
    {
      name: 'POST complete',
      min: 'Collaborator',
      method: 'post',
      path: () => `/api/v1/projects/${projectId}/complete`,
      reset: async () => void (await owner.post(`/api/v1/projects/${projectId}/restore`)),
    },
    { name: 'POST restore', min: 'Collaborator', method: 'post', path: () => `/api/v1/projects/${projectId}/restore` },
    {
      name: 'DELETE project',
      min: 'Collaborator',
      method: 'delete',
      path: () => `/api/v1/projects/${disposableId}`,
      reset: createDisposable,
    },
    { name: 'PUT shareLink', min: 'Collaborator', method: 'put', path: () => `/api/v1/projects/${projectId}/shareLink` },
    {
      name: 'DELETE shareLink',
      min: 'Collaborator',
      method: 'delete',
      path: () => `/api/v1/projects/${projectId}/shareLink`,
      reset: async () => void (await owner.put(`/api/v1/projects/${projectId}/shareLink`)),
    },
    { name: 'GET shareLink', min: 'Collaborator', method: 'get', path: () => `/api/v1/projects/${projectId}/shareLink` },
    {
      name: 'POST field',
      min: 'Collaborator',
      method: 'post',
      path: () => `/api/v1/projects/${projectId}/fields`,
      body: (caller) => ({ name: `Field of ${caller}`, type: 'text' }),
    },
  ];

  test.each(endpoints.map((e) => [e.name, e] as const))('%s', async (_name, endpoint) => {
    const seen: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const caller of CALLERS) {
      const api = client(server, tokens[caller]);
      const body = endpoint.body?.(caller);
      const res = await (endpoint.method === 'get' || endpoint.method === 'delete'
        ? api[endpoint.method](endpoint.path())
        : api[endpoint.method](endpoint.path(), body));
      seen[caller] = res.status;
      expected[caller] = caller === 'outsider' ? 404 : RANK[caller] >= RANK[endpoint.min] ? 200 : 403;
      if (res.status === 403) expect(res.body.error.code).toBe('FORBIDDEN');
      if (res.status === 404) expect(res.body.error.code).toBe('NOT_FOUND');
      if (res.status === 200) await endpoint.reset?.();
    }
    expect(seen).toEqual(expected);
  });

  test('an outsider lists no projects of the workspace in me/projects', async () => {
    const res = await client(server, tokens.outsider).get('/api/v1/me/projects');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });

  test('copy needs only Viewer on the source and Collaborator on the target folder', async () => {
    const reader = addUser(server, 'reader', { workspaceId: server.workspaceId, role: 'Viewer' });
    const own = /created workspace (\S+)/.exec(runCli(server.dataDir, 'workspace', 'create', 'Reader space', '--owner', 'reader').out)![1]!;
    const api = client(server, reader);
    const copied = await api.post(`/api/v1/projects/${projectId}/copy`, { folderId: own });
    expect(copied.status).toBe(200);
    expect(copied.body.item).toMatchObject({ name: 'Roles', workspaceId: own });
    const fromTemplate = await api.post('/api/v1/projects/from-template', { folderId: own, templateId });
    expect(fromTemplate.status).toBe(200);
    // The reverse: Viewer on the target is not enough, and a source outside the caller's workspaces is hidden.
    expect((await api.post(`/api/v1/projects/${copied.body.item.id}/copy`, { folderId: server.workspaceId })).status).toBe(403);
    const hidden = await client(server, tokens.Collaborator).post(`/api/v1/projects/${copied.body.item.id}/copy`, {
      folderId: server.workspaceId,
    });
    expect(hidden.status).toBe(404);
  });
});
