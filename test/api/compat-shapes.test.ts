import { STATUS_CODES } from 'node:http';
import { addUser, call, client, OWNER_TOKEN, runCli, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';

/**
 * Shapes that clients of the real service (its MCP server, clients generated from its public API
 * document) read or send and that we answered differently (docs "API notes", "Compatibility with
 * clients of the real service").
 */

type Api = ReturnType<typeof client>;

let server: TestServer;
let api: Api;
/** A clock that never gives the same millisecond twice, so "viewed last" is never a tie. */
let last = 0;
const clock = { now: () => (last = Math.max(Date.now(), last + 1)) };

beforeAll(async () => {
  server = await startServer({ clock });
  api = client(server, OWNER_TOKEN);
});
afterAll(() => server.close());

async function newAgent(body: object): Promise<any> {
  const res = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, body);
  if (res.status !== 200) throw new Error(`agent create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.item;
}

function expect400(res: { status: number; body: any }, field: string, reason: string): void {
  expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { field, reason },
  });
}

describe("error bodies carry statusMessage (the document's Error: ok, message, code, statusMessage)", () => {
  test('the HTTP reason phrase on 400, 401, 404 and route errors', async () => {
    const cases = [
      [await call(server.url, 'GET', '/api/v1/me'), 401],
      [await api.get('/api/v1/projects/nope'), 404],
      [await api.get('/api/v1/no-such-route'), 404],
      [await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'a\nb' }), 400],
      [await call(server.url, 'GET', '/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/view', { headers: { accept: 'application/json' } }), 404],
    ] as const;
    for (const [res, status] of cases) {
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({
        ok: false,
        code: expect.any(String),
        message: expect.any(String),
        statusMessage: STATUS_CODES[status],
      });
    }
    expect((await api.get('/api/v1/projects/nope')).body.statusMessage).toBe('Not Found');
  });
});

describe('public agents', () => {
  test('GET and PATCH /agents/{id}/public-agent: item with name and data.avatar; autoEndChats and meta stored and returned', async () => {
    const agent = await newAgent({
      name: 'Shop helper',
      data: { type: 'agent', data: { avatar: { type: 'emoji', data: { value: '🛒' } } } },
    });
    const { publicUrl } = (await api.put(`/api/v1/agents/${agent.id}/publicAccess`)).body;
    const publicId = publicUrl.split('/').pop();
    const got = await api.get(`/api/v1/agents/${agent.id}/public-agent`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      ok: true,
      publicUrl,
      item: {
        id: publicId,
        name: 'Shop helper',
        data: { avatar: { type: 'emoji', data: { value: '🛒' } } },
        space_agent_id: agent.id,
        preferences: { mode: 'template', canCopyKnowledge: false, hideBranding: false, theme: 'light', autoEndChats: false },
      },
    });
    const patched = await api.patch(`/api/v1/agents/${agent.id}/public-agent`, {
      preferences: { autoEndChats: true, meta: { title: 'Shop <help>', description: 'Ask about orders' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.item).toMatchObject({
      id: publicId,
      name: 'Shop helper',
      data: { avatar: { type: 'emoji', data: { value: '🛒' } } },
      preferences: { autoEndChats: true, meta: { title: 'Shop <help>', description: 'Ask about orders' } },
    });
    // meta merges key by key, like the preferences around it.
    const again = await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { meta: { title: 'Shop' } } });
    expect(again.body.item.preferences).toMatchObject({ autoEndChats: true, meta: { title: 'Shop', description: 'Ask about orders' } });
    expect((await api.get(`/api/v1/agents/${agent.id}/public-agent`)).body.item.preferences.meta).toEqual({
      title: 'Shop',
      description: 'Ask about orders',
    });
    // The public page uses meta for its title and description.
    const html = await call(server.url, 'GET', `/public/agents/${publicId}`, { headers: { accept: 'text/html' } });
    expect(html.body).toContain('<title>Shop</title>');
    expect(html.body).toContain('<meta name="description" content="Ask about orders">');
    expect400(
      await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { meta: { subtitle: 'x' } } }),
      'preferences.meta.subtitle',
      'unknown_field',
    );
    expect400(
      await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { autoEndChats: 'yes' } }),
      'preferences.autoEndChats',
      'invalid_type',
    );
  });

  test('GET /public-agents/{id}: top-level publicUrl and item.data.avatar', async () => {
    const agent = await newAgent({ name: 'Open helper' });
    const { publicUrl } = (await api.put(`/api/v1/agents/${agent.id}/publicAccess`)).body;
    const publicId = publicUrl.split('/').pop();
    const res = await client(server, addUser(server, 'shape-reader')).get(`/api/v1/public-agents/${publicId}`);
    expect(res.status).toBe(200);
    expect(res.body.publicUrl).toBe(publicUrl);
    expect(res.body.item).toMatchObject({ id: publicId, name: 'Open helper', data: { avatar: { type: 'emoji', data: { value: '🤖' } } } });
    const page = await call(server.url, 'GET', `/public/agents/${publicId}`, { headers: { accept: 'application/json' } });
    expect(page.body).toEqual(res.body);
  });
});

describe("project field definitions in the document's shapes", () => {
  test('boolean, number, string, Select (options keyed by id) and DateTime, with our name, type and options beside', async () => {
    const projectId = await newProject(server, 'Field shapes');
    const define = async (body: object) => {
      const res = await api.post(`/api/v1/projects/${projectId}/fields`, body);
      expect(res.status).toBe(200);
      return res.body.item;
    };
    const done = await define({ name: 'Done', type: 'boolean' });
    const points = await define({ name: 'Points', type: 'number' });
    const owner = await define({ name: 'Owner', type: 'text' });
    const stage = await define({ name: 'Stage', type: 'select', options: ['todo', 'doing', 'done'] });
    const due = await define({ name: 'Due', type: 'date' });
    expect(done).toEqual({ id: done.id, name: 'Done', type: 'boolean', data: { type: 'boolean' } });
    expect(points).toEqual({
      id: points.id,
      name: 'Points',
      type: 'number',
      data: { displayName: 'Points', type: 'number', render: { type: 'text' }, format: { type: 'decimal' } },
    });
    expect(owner).toEqual({ id: owner.id, name: 'Owner', type: 'text', data: { displayName: 'Owner', type: 'string' } });
    expect(due).toEqual({
      id: due.id,
      name: 'Due',
      type: 'date',
      data: { type: 'DateTime', title: 'Due', format: { time: false, zone: false } },
    });
    expect(stage).toMatchObject({
      name: 'Stage',
      type: 'select',
      options: ['todo', 'doing', 'done'],
      data: { displayName: 'Stage', type: 'Select' },
    });
    const options = Object.values<any>(stage.data.options);
    expect(options.map((o) => o.name)).toEqual(['todo', 'doing', 'done']);
    for (const [key, option] of Object.entries<any>(stage.data.options)) {
      expect(option).toEqual({ id: key, name: option.name, rank: expect.any(String) });
    }
    const ranks = options.map((o) => o.rank);
    expect([...ranks].sort()).toEqual(ranks);
    // The list returns the same definitions (option ids are stable).
    const listed = await api.get(`/api/v1/projects/${projectId}/fields`);
    expect(listed.body).toEqual({ ok: true, items: [done, points, owner, stage, due] });
    // Values are still written with the option text.
    const [task] = await addTasks(server, projectId, ['Valued']);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${stage.id}`, { value: 'doing' })).status).toBe(200);
    expect((await api.get(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${stage.id}`)).body.item).toEqual({
      fieldId: stage.id,
      value: 'doing',
    });
  });

  test("the document's type names are accepted on create: string, Select, DateTime", async () => {
    const projectId = await newProject(server, 'Field synonyms');
    const text = await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Notes', type: 'string' });
    expect(text.body.item).toMatchObject({ type: 'text', data: { type: 'string' } });
    const select = await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Size', type: 'Select', options: ['S', 'M'] });
    expect(select.body.item).toMatchObject({ type: 'select', options: ['S', 'M'], data: { type: 'Select' } });
    const date = await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'When', type: 'DateTime' });
    expect(date.body.item).toMatchObject({ type: 'date', data: { type: 'DateTime' } });
    expect400(await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Bad', type: 'Select' }), 'options', 'required');
  });
});

describe('conversation llm', () => {
  test("llm.name is one of the document's model names; the real model is llm.model", async () => {
    const agent = await newAgent({ name: 'Talker', data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'go' }] } } });
    const done = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' });
    expect(done.body.item.data.llm).toEqual({ type: 'openai', name: 'gpt-4o-mini', model: 'taskspace-offline-1' });
    const listed = (await api.get(`/api/v1/agents/${agent.id}/convos`)).body.items;
    expect(listed[0].data.llm).toEqual({ type: 'openai', name: 'gpt-4o-mini', model: 'taskspace-offline-1' });
  });
});

describe('share link before it is enabled', () => {
  test('GET answers 200 {ok: true, item: null}; after PUT the URLs; after DELETE null again', async () => {
    const projectId = await newProject(server, 'Not shared');
    const before = await api.get(`/api/v1/projects/${projectId}/shareLink`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ ok: true, item: null });
    const enabled = (await api.put(`/api/v1/projects/${projectId}/shareLink`)).body.item;
    expect((await api.get(`/api/v1/projects/${projectId}/shareLink`)).body).toEqual({ ok: true, item: enabled });
    await api.delete(`/api/v1/projects/${projectId}/shareLink`);
    expect((await api.get(`/api/v1/projects/${projectId}/shareLink`)).body).toEqual({ ok: true, item: null });
    expect((await api.get('/api/v1/projects/nope/shareLink')).status).toBe(404);
  });
});

describe('agent templates, template avatar and command ids as the document allows', () => {
  const DOCUMENT_TEMPLATES = [
    'Tasker',
    'Researcher',
    'Marketer',
    'EmailWriter',
    'Sales',
    'CustomerSupport',
    'ProjectManager',
    'ContentCreator',
    'Copywriter',
    'LegalAdvisor',
    'SeoSpecialist',
    'ProductivityCoach',
    'EngineeringExpert',
    'Translator',
    'Summarizer',
    'ResumeBuilder',
    'Storyteller',
    'Tutor',
    'BrandStrategist',
    'SocialMediaSpecialist',
    'BusinessStrategist',
    'FinancialAnalyst',
    'HumanResourcesManager',
    'DataScientist',
    'ITConsultant',
    'FinancialAdvisor',
    'HealthCoach',
    'SustainabilityConsultant',
    'UXDesigner',
    'QualityAssuranceAnalyst',
    'ProductManager',
    'GrowthHacker',
    'BusinessDevelopmentManager',
    'PublicRelationsSpecialist',
    'EventPlanner',
    'DataAnalyst',
    'Editor',
    'CEO',
    'InterviewCoach',
    'TechSupportAdvisor',
    'Doctor',
    'BlogExpert',
    'TweetOptimizer',
    'EmailMarketer',
    'CourseCreator',
    'ScriptCreator',
    'ScreenplayWriter',
    'Proofreader',
    'SalesColdEmailCoach',
    'CodeExplainer',
    'CreativeWritingCoach',
    'AdvertisingCopywriter',
    'VideoScriptWriter',
    'ProjectArchitect',
    'AICouncil',
    'Negotiator',
    'VCAssociate',
    'Books',
    'StartupMentor',
    'SmallBusiness',
    'WebDevelopment',
    'PromptEngineer',
    'ArticleWriter',
    'WorkflowAgent',
    'StrategyAgent',
    'ViralAgent',
    'SOPOnboardingAgent',
    'PressReleaseAgent',
  ];

  test('every one of the 68 template types creates a preset agent with a runnable command', async () => {
    expect(DOCUMENT_TEMPLATES).toHaveLength(68);
    for (const type of DOCUMENT_TEMPLATES) {
      const res = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: `T ${type}`,
        data: { type: 'template', template: { type } },
      });
      expect([type, res.status]).toEqual([type, 200]);
      const agent = res.body.item;
      expect(agent.type).toBe('template');
      expect(agent.data.commands.length).toBeGreaterThan(0);
      expect(agent.data.commands.every((c: any) => c.prompt.includes('{{ input }}'))).toBe(true);
      expect(agent.data.description).not.toBe('');
    }
    const marketer = (await api.get(`/api/v1/folders/${server.workspaceId}/agents?search=T%20Marketer`)).body.items[0];
    const run = await api.post(`/api/v1/agents/${marketer.id}/convos`, { command: marketer.data.commands[0].name, input: 'a bakery' });
    expect(run.status).toBe(200);
  });

  test("a template avatar is stored and returned (over the preset's)", async () => {
    const agent = await newAgent({
      name: 'Owl',
      data: { type: 'template', template: { type: 'Tutor', avatar: { type: 'emoji', data: { value: '🦉' } } } },
    });
    expect(agent.data.avatar).toEqual({ type: 'emoji', data: { value: '🦉' } });
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.data.avatar).toEqual({ type: 'emoji', data: { value: '🦉' } });
    expect400(
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'X',
        data: { type: 'template', template: { type: 'Tutor', avatar: { type: 'gif', data: { value: 'x' } } } },
      }),
      'data.template.avatar.type',
      'invalid_value',
    );
  });

  test('a command id is any non-empty string', async () => {
    const ids = ['summarize_text', 'Summarize text!', 'résumé.v2', 'a/b c'];
    const agent = await newAgent({
      name: 'Ids',
      data: { type: 'data', data: { commands: ids.map((id, i) => ({ id, name: `C${i}`, prompt: 'p {{ input }}' })) } },
    });
    expect(agent.data.commands.map((c: any) => c.id)).toEqual(ids);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.data.commands.map((c: any) => c.id)).toEqual(ids);
    expect((await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Summarize text!' })).status).toBe(200);
    expect400(
      await api.patch(`/api/v1/agents/${agent.id}`, { data: { commands: [{ id: '', name: 'A', prompt: 'p' }] } }),
      'data.commands[0].id',
      'too_short',
    );
  });
});

describe('GET /me/projects', () => {
  function createWorkspace(name: string, owner: string): string {
    const res = runCli(server.dataDir, 'workspace', 'create', name, '--owner', owner);
    const match = /created workspace (\S+)/.exec(res.out);
    if (!match) throw new Error(res.err || res.out);
    return match[1]!;
  }

  test('limit defaults to 100', async () => {
    const token = addUser(server, 'many-projects');
    const space = createWorkspace('Many', 'many-projects');
    const mine = client(server, token);
    for (let n = 1; n <= 105; n++) {
      expect((await mine.post(`/api/v1/workspaces/${space}/projects`, { contentType: 'text/plain', content: `P${n}` })).status).toBe(200);
    }
    expect((await mine.get('/api/v1/me/projects')).body.items).toHaveLength(100);
    expect((await mine.get('/api/v1/me/projects?page=2')).body.items).toHaveLength(5);
  });

  test('viewed-desc (the default) and viewed-asc order by when the caller last opened each project', async () => {
    const token = addUser(server, 'viewer-order');
    const space = createWorkspace('Views', 'viewer-order');
    const mine = client(server, token);
    const ids: Record<string, string> = {};
    for (const name of ['A', 'B', 'C', 'D']) {
      ids[name] = (await mine.post(`/api/v1/workspaces/${space}/projects`, { contentType: 'text/plain', content: name })).body.item.id;
    }
    const names = async (query = '') => (await mine.get(`/api/v1/me/projects${query}`)).body.items.map((p: any) => p.name);
    // Nothing opened yet: newest first (desc), oldest first (asc).
    expect(await names()).toEqual(['D', 'C', 'B', 'A']);
    expect(await names('?sort=viewed-asc')).toEqual(['A', 'B', 'C', 'D']);
    // Open B, then A, then B again.
    for (const name of ['B', 'A', 'B']) expect((await mine.get(`/api/v1/projects/${ids[name]}`)).status).toBe(200);
    expect(await names('?sort=viewed-desc')).toEqual(['B', 'A', 'D', 'C']);
    expect(await names()).toEqual(['B', 'A', 'D', 'C']);
    expect(await names('?sort=viewed-asc')).toEqual(['C', 'D', 'A', 'B']);
    expect(await names('?sort=viewed-desc&limit=2&page=2')).toEqual(['D', 'C']);
    // Views are per person: the workspace owner's views do not reorder this caller's list.
    runCli(server.dataDir, 'member', 'add', space, 'owner', 'Viewer');
    expect((await api.get(`/api/v1/projects/${ids.C}`)).status).toBe(200);
    expect(await names()).toEqual(['B', 'A', 'D', 'C']);
    expect((await api.get('/api/v1/me/projects?limit=1')).body.items[0].id).toBe(ids.C);
  });

  test('an unknown sort is 400 in the envelope', async () => {
    const res = await api.get('/api/v1/me/projects?sort=bogus');
    expect400(res, 'sort', 'invalid_value');
    expect(res.body).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', statusMessage: 'Bad Request' });
  });
});
