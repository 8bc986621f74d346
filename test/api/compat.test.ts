import { addUser, call, client, OWNER_TOKEN, startServer, type TestServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

/**
 * What clients generated from the real service's public API document send and expect
 * (issue 8, "Compatibility with clients written against the real service").
 */

type Api = ReturnType<typeof client>;

function expect400(res: { status: number; body: any }, field: string, reason: string): void {
  expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { field, reason },
  });
}

const TONES = [
  'authoritative',
  'clinical',
  'cold',
  'confident',
  'cynical',
  'emotional',
  'empathetic',
  'formal',
  'friendly',
  'humourous',
  'informal',
  'ironic',
  'optimistic',
  'pessimistic',
  'playful',
  'sarcastic',
  'serious',
  'sympathetic',
  'tentative',
  'warm',
  'creative',
  'inspiring',
  'casual',
];

let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer();
  api = client(server, OWNER_TOKEN);
});
afterAll(() => server.close());

async function newAgent(body: object): Promise<any> {
  const res = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, body);
  if (res.status !== 200) throw new Error(`agent create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.item;
}

describe('GET /projects/{projectId}/tasks/{taskId}/fields', () => {
  test("every field of the project with the task's value, null where unset, in field order", async () => {
    const projectId = await newProject(server, 'Field values');
    const [task, other] = await addTasks(server, projectId, ['One', 'Two']);
    const empty = await api.get(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ ok: true, items: [] });
    const ids: string[] = [];
    for (const [name, type] of [
      ['Done', 'boolean'],
      ['Points', 'number'],
      ['Owner', 'text'],
    ]) {
      const res = await api.post(`/api/v1/projects/${projectId}/fields`, { name, type });
      expect(res.status).toBe(200);
      ids.push(res.body.item.id);
    }
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${ids[0]}`, { value: false })).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${ids[2]}`, { value: 'ana' })).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${other!.id}/fields/${ids[1]}`, { value: 8 })).status).toBe(200);
    const res = await api.get(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields`);
    expect(res.body).toEqual({
      ok: true,
      items: [
        { fieldId: ids[0], value: false },
        { fieldId: ids[1], value: null },
        { fieldId: ids[2], value: 'ana' },
      ],
    });
    expect((await api.get(`/api/v1/projects/${projectId}/tasks/${other!.id}/fields`)).body.items[1]).toEqual({ fieldId: ids[1], value: 8 });
  });

  test('same read access as reading the task: Viewer yes, outsider 404, unknown task 404', async () => {
    const projectId = await newProject(server, 'Field access');
    const [task] = await addTasks(server, projectId, ['Seen']);
    const viewer = client(server, addUser(server, 'compat-viewer', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const outsider = client(server, addUser(server, 'compat-outsider'));
    const path = `/api/v1/projects/${projectId}/tasks/${task!.id}/fields`;
    expect((await viewer.get(path)).status).toBe(200);
    expect((await outsider.get(path)).status).toBe(404);
    expect((await outsider.get(`/api/v1/projects/${projectId}/tasks/${task!.id}`)).status).toBe(404);
    const unknown = await api.get(`/api/v1/projects/${projectId}/tasks/00000000-0000-4000-8000-000000000000/fields`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.ok).toBe(false);
  });
});

describe('GET /public-agents/{publicAgentId}', () => {
  test('any authenticated caller reads the public view by its public id; nothing owner-only', async () => {
    const agent = await newAgent({
      name: 'Public helper',
      data: {
        type: 'agent',
        data: { description: 'Helps', tone: 'warm', commands: [{ name: 'Ask', prompt: 'secret prompt {{ input }}' }] },
      },
    });
    const { publicUrl } = (await api.put(`/api/v1/agents/${agent.id}/publicAccess`)).body;
    const publicId = publicUrl.split('/').pop();
    const outsider = client(server, addUser(server, 'public-reader'));
    const res = await outsider.get(`/api/v1/public-agents/${publicId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: publicId,
        name: 'Public helper',
        data: { avatar: { type: 'emoji', data: { value: '🤖' } } },
        description: 'Helps',
        tone: 'warm',
        language: 'en',
        avatar: { type: 'emoji', data: { value: '🤖' } },
        commands: [{ name: 'Ask', mode: 'default', prompt: 'secret prompt {{ input }}' }],
        preferences: { mode: 'template', canCopyKnowledge: false, hideBranding: false, theme: 'light', autoEndChats: false },
      },
      publicUrl,
    });
    expect(JSON.stringify(res.body)).not.toContain(agent.id);
    expect(JSON.stringify(res.body)).not.toContain(server.workspaceId);
    // The JSON of the unauthenticated public page is the same view.
    const page = await call(server.url, 'GET', `/public/agents/${publicId}`, { headers: { accept: 'application/json' } });
    expect(page.body).toEqual(res.body);

    await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { mode: 'chatbot' } });
    expect((await outsider.get(`/api/v1/public-agents/${publicId}`)).body.item.commands).toEqual([{ name: 'Ask', mode: 'default' }]);

    expect((await call(server.url, 'GET', `/api/v1/public-agents/${publicId}`)).status).toBe(401);
    expect((await outsider.get(`/api/v1/public-agents/${agent.id}`)).status).toBe(404);
    await api.delete(`/api/v1/agents/${agent.id}/publicAccess`);
    expect((await outsider.get(`/api/v1/public-agents/${publicId}`)).status).toBe(404);
  });
});

describe('agent data as the real service defines it', () => {
  test('every one of the 23 tones is accepted; the default is friendly', async () => {
    for (const tone of TONES) {
      const agent = await newAgent({ name: `Tone ${tone}`, data: { type: 'agent', data: { tone } } });
      expect(agent.data.tone).toBe(tone);
    }
    expect((await newAgent({ name: 'No tone' })).data.tone).toBe('friendly');
    expect400(
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'Bad', data: { data: { tone: 'grumpy' } } }),
      'data.data.tone',
      'invalid_value',
    );
  });

  test('the tones we documented before are accepted and mapped; stored ones read back mapped', async () => {
    expect((await newAgent({ name: 'Legacy 1', data: { data: { tone: 'neutral' } } })).data.tone).toBe('friendly');
    const agent = await newAgent({ name: 'Legacy 2', data: { data: { tone: 'professional' } } });
    expect(agent.data.tone).toBe('formal');
    expect((await api.patch(`/api/v1/agents/${agent.id}`, { data: { tone: 'neutral' } })).body.item.data.tone).toBe('friendly');
    // An agent stored before this change, with the old default.
    const db = dbOf(server);
    const stored = JSON.parse((await db.value<string>('SELECT data_json FROM agents WHERE id = ?', agent.id))!);
    expect(await db.run('UPDATE agents SET data_json = ? WHERE id = ?', JSON.stringify({ ...stored, tone: 'neutral' }), agent.id)).toBe(1);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.data.tone).toBe('friendly');
    const listed = (await api.get(`/api/v1/folders/${server.workspaceId}/agents?limit=500`)).body.items;
    expect(listed.every((a: any) => TONES.includes(a.data.tone))).toBe(true);
  });

  test('command modes default, plan-and-execute-v1, plan-and-execute-v2 and json; anything else is 400', async () => {
    const modes = ['default', 'plan-and-execute-v1', 'plan-and-execute-v2', 'json'];
    const agent = await newAgent({
      name: 'Modes',
      data: { type: 'agent', data: { commands: modes.map((mode) => ({ name: mode, prompt: `Do: {{ input }}`, mode })) } },
    });
    expect(agent.data.commands.map((c: any) => c.mode)).toEqual(modes);
    const run = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'plan-and-execute-v2', input: 'x' });
    expect(run.status).toBe(200);
    expect400(
      await api.patch(`/api/v1/agents/${agent.id}`, { data: { commands: [{ name: 'A', prompt: 'p', mode: 'plan' }] } }),
      'data.commands[0].mode',
      'invalid_value',
    );
  });

  test('inputPlaceholder is stored and returned (single line, at most 200 characters)', async () => {
    const agent = await newAgent({ name: 'Placeholder', data: { type: 'agent', data: { inputPlaceholder: 'Ask me anything' } } });
    expect(agent.data.inputPlaceholder).toBe('Ask me anything');
    const patched = await api.patch(`/api/v1/agents/${agent.id}`, { data: { inputPlaceholder: 'Paste a URL' } });
    expect(patched.body.item.data.inputPlaceholder).toBe('Paste a URL');
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.data.inputPlaceholder).toBe('Paste a URL');
    expect400(
      await api.patch(`/api/v1/agents/${agent.id}`, { data: { inputPlaceholder: 'a\nb' } }),
      'data.inputPlaceholder',
      'contains_line_break',
    );
    expect400(
      await api.patch(`/api/v1/agents/${agent.id}`, { data: { inputPlaceholder: 'x'.repeat(201) } }),
      'data.inputPlaceholder',
      'too_long',
    );
  });

  test('create from a built-in template: a preset agent, values in data.data applied over it', async () => {
    const tasker = await newAgent({ name: 'My tasker', data: { type: 'template', template: { type: 'Tasker' } } });
    expect(tasker).toMatchObject({
      name: 'My tasker',
      type: 'template',
      data: { tone: 'confident', inputPlaceholder: 'Describe what needs to get done' },
    });
    expect(tasker.data.commands.map((c: any) => c.name)).toEqual(['Break down', 'Next step']);
    expect(tasker.data.commands.every((c: any) => /^[A-Za-z0-9_-]{22}$/.test(c.id) && c.prompt.includes('{{ input }}'))).toBe(true);
    for (const type of ['Researcher', 'Writer', 'Planner', 'Summarizer', 'Translator']) {
      const agent = await newAgent({ name: type, data: { type: 'template', template: { type } } });
      expect(agent.data.commands.length).toBeGreaterThan(0);
      expect(TONES).toContain(agent.data.tone);
    }
    const custom = await newAgent({
      name: 'French',
      data: { type: 'template', template: { type: 'Researcher' }, data: { language: 'fr', tone: 'warm' } },
    });
    expect(custom.data).toMatchObject({ language: 'fr', tone: 'warm' });
    expect(custom.data.commands[0].mode).toBe('plan-and-execute-v1');

    const post = (body: object) => api.post(`/api/v1/folders/${server.workspaceId}/agents`, body);
    expect400(await post({ name: 'X', data: { type: 'template', template: { type: 'Juggler' } } }), 'data.template.type', 'invalid_value');
    expect400(await post({ name: 'X', data: { type: 'template' } }), 'data.template', 'required');
    expect400(await post({ name: 'X', data: { type: 'agent', template: { type: 'Tasker' } } }), 'data.type', 'invalid_value');
  });
});

describe('public agent preferences', () => {
  test('mode template/chatbot and theme light/dark/auto; chat and system still accepted and mapped', async () => {
    const agent = await newAgent({ name: 'Prefs' });
    await api.put(`/api/v1/agents/${agent.id}/publicAccess`);
    const patch = (preferences: object) => api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences });
    expect((await patch({ mode: 'chatbot', theme: 'auto' })).body.item.preferences).toMatchObject({ mode: 'chatbot', theme: 'auto' });
    expect((await patch({ mode: 'template', theme: 'dark' })).body.item.preferences).toMatchObject({ mode: 'template', theme: 'dark' });
    expect((await patch({ mode: 'chat', theme: 'system' })).body.item.preferences).toMatchObject({ mode: 'chatbot', theme: 'auto' });
    expect400(await patch({ theme: 'sepia' }), 'preferences.theme', 'invalid_value');
    // Preferences stored before this change read back with the current values.
    await dbOf(server).run(
      `UPDATE public_agents SET preferences_json = '{"mode":"chat","canCopyKnowledge":false,"hideBranding":false,"theme":"system"}' WHERE agent_id = ?`,
      agent.id,
    );
    expect((await api.get(`/api/v1/agents/${agent.id}/public-agent`)).body.item.preferences).toMatchObject({
      mode: 'chatbot',
      theme: 'auto',
    });
  });
});

describe('conversations', () => {
  test('status idle after an answer, requires_review after a failure; llm openai/gpt-4o-mini for the offline provider', async () => {
    const agent = await newAgent({ name: 'Talker', data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'go' }] } } });
    const done = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' });
    expect(done.body.item).toMatchObject({
      status: 'idle',
      data: { llm: { type: 'openai', name: 'gpt-4o-mini', model: 'taskspace-offline-1' } },
    });
    await dbOf(server).run("UPDATE conversations SET status = 'failed' WHERE id = ?", done.body.item.id);
    expect((await api.get(`/api/v1/agents/${agent.id}/convos/${done.body.item.id}`)).body.item.status).toBe('requires_review');
  });
});

describe('task create with taskId "null"', () => {
  test('means the project root, for every placement', async () => {
    const projectId = await newProject(server, 'Null reference');
    await addTasks(server, projectId, ['First']);
    for (const placement of ['afterbegin', 'beforeend', 'afterend']) {
      const res = await api.post(`/api/v1/projects/${projectId}/tasks/`, {
        tasks: [{ contentType: 'text/markdown', content: `By ${placement}`, taskId: 'null', placement }],
      });
      expect(res.status).toBe(200);
      expect(res.body.item[0].parentId).toBeUndefined();
    }
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['First', 'By afterbegin', 'By beforeend', 'By afterend']);
    const bad = await api.post(`/api/v1/projects/${projectId}/tasks/`, {
      tasks: [{ contentType: 'text/markdown', content: 'x', taskId: 'nul' }],
    });
    expect400(bad, 'tasks[0].taskId', 'invalid_format');
  });
});

describe('unknown body fields', () => {
  test('are refused with 400 VALIDATION_ERROR naming the field (reason unknown_field), and nothing is written', async () => {
    const projectId = await newProject(server, 'Strict');
    const [task] = await addTasks(server, projectId, ['Strict task']);
    const agent = await newAgent({ name: 'Strict agent' });
    const cases: [() => Promise<any>, string][] = [
      [
        () => api.post(`/api/v1/projects/${projectId}/tasks/`, { tasks: [{ contentType: 'text/markdown', content: 'x', color: 'red' }] }),
        'tasks[0].color',
      ],
      [
        () => api.post(`/api/v1/projects/${projectId}/tasks/`, { tasks: [{ contentType: 'text/markdown', content: 'x' }], dryRun: true }),
        'dryRun',
      ],
      [
        () => api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}`, { contentType: 'text/markdown', content: 'y', title: 'y' }),
        'title',
      ],
      [() => api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'X', data: { data: { mood: 'happy' } } }), 'data.data.mood'],
      [
        () => api.patch(`/api/v1/agents/${agent.id}`, { data: { commands: [{ name: 'A', prompt: 'p', temperature: 1 }] } }),
        'data.commands[0].temperature',
      ],
      [() => api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId, weight: 2 }), 'weight'],
      [() => api.put(`/api/v1/projects/${projectId}/members`, { handles: ['owner'], role: 'Viewer' }), 'role'],
      [() => api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/abc`, { value: 1, unit: 'h' }), 'unit'],
      [
        () =>
          api.post('/api/v1/automations', {
            workspaceId: server.workspaceId,
            name: 'A',
            trigger: { type: 'schedule', cron: '* * * * *' },
            actions: [],
            owner: 'x',
          }),
        'owner',
      ],
      [() => api.post('/api/v2/webhooks', { targetUrl: 'https://example.com/h', events: ['task.added'], secret: 's' }), 'secret'],
      [() => api.post('/api/v2/subscribeWebhook', { targetUrl: 'https://example.com/h', triggerType: 'task.added', extra: 1 }), 'extra'],
      [() => api.post('/api/v2/unsubscribeWebhook', { hookId: 'h', extra: 1 }), 'extra'],
    ];
    for (const [send, field] of cases) {
      const res = await send();
      expect400(res, field, 'unknown_field');
      expect(res.body.error.message).toBe(`${field} is not a known field`);
    }
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['Strict task']);
  });

  test('routes that take no body accept none, an empty body or {}, and refuse any field', async () => {
    const projectId = await newProject(server, 'Bodyless');
    const [task] = await addTasks(server, projectId, ['Tick']);
    const complete = `/api/v1/projects/${projectId}/tasks/${task!.id}/complete`;
    expect((await api.post(complete)).status).toBe(200);
    expect((await api.post(complete, {})).status).toBe(200);
    expect(
      (await call(server.url, 'POST', complete, { token: OWNER_TOKEN, headers: { 'content-type': 'application/json' }, rawBody: '' }))
        .status,
    ).toBe(200);
    const refused = await api.post(complete, { completed: false });
    expect400(refused, 'completed', 'unknown_field');
    expect(refused.body.error.message).toBe('completed is not a known field (this route takes no body)');
    expect400(await api.post(complete, [1]), 'body', 'invalid_type');
    const agent = await newAgent({ name: 'Bodyless agent' });
    expect400(await api.put(`/api/v1/agents/${agent.id}/publicAccess`, { enabled: true }), 'enabled', 'unknown_field');
    expect((await api.get(`/api/v1/agents/${agent.id}/public-agent`)).status).toBe(404);
  });

  test('every JSON request body in the OpenAPI document closes its objects (additionalProperties: false)', async () => {
    const doc = (await call(server.url, 'GET', '/openapi.json')).body;
    /**
     * Object schemas that are free-form on purpose: automation trigger/actions and whole definitions (a step test's draft, an
     * imported document's), which the engine validates with field paths, and sample payloads (test runs, step tests' trigger
     * samples and pinned step outputs).
     */
    const freeForm = new Set([
      '/api/v1/automations POST trigger',
      '/api/v1/automations POST actions[]',
      '/api/v1/automations/{automationId} PUT trigger',
      '/api/v1/automations/{automationId} PUT actions[]',
      '/api/v1/automations/{automationId}/test POST payload',
      '/api/v1/automations/{automationId}/steps/{stepId}/test POST definition',
      '/api/v1/automations/{automationId}/steps/{stepId}/test POST trigger',
      '/api/v1/automations/{automationId}/steps/{stepId}/test POST steps',
      '/api/v1/automations/import POST document.definition',
      '/api/v1/automations/check POST definition',
      // A piece's own fields: a connection's custom-auth fields and a step's property values, checked against the piece's declaration.
      '/api/v1/workspaces/{workspaceId}/connections POST auth.props',
      '/api/v1/workspaces/{workspaceId}/connections/{id} PATCH auth.props',
      '/api/v1/automations/kinds/{type}/options POST props',
      '/api/v1/automations/kinds/{type}/sample POST props',
      '/api/v1/workspaces/{workspaceId}/connections/oauth2 POST props',
      '/api/v1/workspaces/{workspaceId}/connections/{id}/oauth2 POST props',
    ]);
    const open: string[] = [];
    const walk = (schema: any, where: string, at: string) => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.type === 'object' || schema.properties) {
        if (schema.additionalProperties !== false && !freeForm.has(`${where} ${at}`)) open.push(`${where} ${at || '(body)'}`);
        for (const [key, sub] of Object.entries(schema.properties ?? {})) walk(sub, where, at ? `${at}.${key}` : key);
      }
      if (schema.items) walk(schema.items, where, `${at}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const sub of schema[key] ?? []) walk(sub, where, at);
    };
    let bodies = 0;
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        bodies++;
        walk(schema, `${path} ${method.toUpperCase()}`, '');
      }
    }
    expect(bodies).toBeGreaterThan(20);
    expect(open).toEqual([]);
  });
});
