import { addUser, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, endedRuns, receiver } from './helpers';

/**
 * Values derived from secrets (docs/automations.md "Secrets"): whatever depends on a secret is
 * recorded as its template with `[secret NAME]` or `[derived from secret NAME]` — in journals,
 * child runs' trigger variables, agents' conversations, errors — and a Viewer reading every run,
 * conversation and version finds no byte of the value, raw, URL-encoded or base64.
 */
describe('secrets never reach what members read', () => {
  // `+ / =` change under URL and form encoding; the value is long enough for every filter below.
  const SECRET = 'Plain+Secret/Value=12345';
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const forms = [
    SECRET,
    encodeURIComponent(SECRET),
    new URLSearchParams({ v: SECRET }).toString().slice(2),
    b64(SECRET),
    b64(SECRET).replace(/=+$/, ''),
    SECRET.toUpperCase(),
    b64(`bot:${SECRET}`),
    'Plain+Secr',
    SECRET.split('').join(' '),
  ];
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let viewer: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const automations: string[] = [];
  let agentId = '';

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    viewer = client(server, addUser(server, 'vera', { workspaceId: server.workspaceId, role: 'Viewer' }));
    // Echoes the request, and answers with credential headers of its own.
    rx = await receiver((request) => ({
      status: request.url.startsWith('/missing') ? 404 : 200,
      headers: { 'set-cookie': `sid=${SECRET}; HttpOnly`, 'x-api-key': 'server-issued-key-777', 'x-request-id': 'r-1' },
      body: { sawAuthorization: request.headers.authorization, sawUrl: request.url, sawBody: request.body },
    }));
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/API_KEY`, { value: SECRET })).status).toBe(200);
    agentId = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Echo',
        data: { type: 'agent', data: { commands: [{ id: 'say', name: 'Say', prompt: 'Say: {{ input }}' }] } },
      })
    ).body.item.id;
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  /** Everything a Viewer can read about runs, versions and conversations, as one text. */
  async function viewerReads(): Promise<string> {
    const texts: string[] = [];
    const read = async (path: string) => {
      const res = await viewer.get(path);
      expect(res.status).toBe(200);
      texts.push(JSON.stringify(res.body));
      return res.body;
    };
    await read(`/api/v1/workspaces/${server.workspaceId}/runs?limit=100`);
    for (const id of automations) {
      await read(`/api/v1/automations/${id}`);
      const runs = await read(`/api/v1/automations/${id}/runs?limit=100`);
      for (const run of runs.items) await read(`/api/v1/automations/${id}/runs/${run.id}`);
      const versions = await read(`/api/v1/automations/${id}/versions`);
      for (const v of versions.items) await read(`/api/v1/automations/${id}/versions/${v.version}`);
    }
    const convos = await read(`/api/v1/agents/${agentId}/convos`);
    for (const c of convos.items) await read(`/api/v1/agents/${agentId}/convos/${c.id}`);
    return texts.join('\n');
  }

  test('a sub-run receives the placeholder, and its stored trigger variables hold no secret', async () => {
    const child = await createAutomation(api, server.workspaceId, {
      name: 'Child',
      trigger: { type: 'webhook' },
      actions: [{ id: 'echo', type: 'set', values: { got: '{{ trigger.k }}' } }],
    });
    const parent = await createAutomation(api, server.workspaceId, {
      name: 'Parent',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'call',
          type: 'automation.run',
          automationId: child.id,
          input: { k: '{{ secrets.API_KEY }}', up: '{{ secrets.API_KEY | upcase }}' },
          wait: true,
        },
      ],
    });
    automations.push(child.id, parent.id);
    const res = await api.post(`/api/v1/automations/${parent.id}/test`, { payload: {} });
    expect(res.status).toBe(200);
    const [childRun] = await endedRuns(api, child.id);
    expect(childRun.status).toBe('completed');
    expect(childRun.steps[0].output).toEqual({ got: '[secret API_KEY]' });
    const viewed = (await viewer.get(`/api/v1/automations/${child.id}/runs/${childRun.id}`)).body.item;
    expect(JSON.stringify(viewed)).not.toContain(SECRET);
    expect(JSON.stringify(viewed)).toContain('[derived from secret API_KEY]');
  });

  test("an agent command's conversation stores the placeholder, not the value", async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Asks with a key',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'ask',
          type: 'agent.command',
          agentId,
          command: 'Say',
          input: 'key {{ secrets.API_KEY }} and {{ secrets.API_KEY | url_encode }}',
        },
      ],
    });
    automations.push(automation.id);
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(run.status).toBe('completed');
    const convo = (await viewer.get(`/api/v1/agents/${agentId}/convos/${run.steps[0].output.conversationId}`)).body.item;
    const text = JSON.stringify(convo);
    for (const form of forms) expect(text).not.toContain(form);
    expect(text).toContain('key [secret API_KEY] and [derived from secret API_KEY]');
  });

  test('encoded and filtered forms, an echoed Basic credential and response credential headers are all masked', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Encodes the key',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'query',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/q`,
          query: { key: '{{ secrets.API_KEY }}' },
          headers: { Authorization: 'Basic {{ "bot:" | append: secrets.API_KEY | base64_encode }}' },
          body: { type: 'form', fields: { key: '{{ secrets.API_KEY }}', other: 'plain' } },
        },
        {
          id: 'derive',
          type: 'set',
          values: {
            up: '{{ secrets.API_KEY | upcase }}',
            b64: '{{ secrets.API_KEY | base64_encode }}',
            url: '{{ secrets.API_KEY | url_encode }}',
            spaced: '{{ secrets.API_KEY | split: "" | join: " " }}',
            sliced: '{{ secrets.API_KEY | slice: 0, 10 }}',
            letters: '{{ secrets.API_KEY | split: "" }}',
            mixed: 'user {{ trigger.user }} with {{ secrets.API_KEY | downcase }}',
          },
        },
        {
          id: 'fail',
          type: 'http.request',
          method: 'GET',
          url: `${rx.url}/missing/{{ secrets.API_KEY | base64_encode | url_encode }}`,
          retry: { maxAttempts: 1 },
        },
      ],
    });
    automations.push(automation.id);
    // The last step fails: its error names the URL, which holds a value derived from the secret.
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { user: 'ann' } })).body.item;
    const sent = rx.received.find((r) => r.url.startsWith('/q'))!;
    expect(sent.headers.authorization).toBe(`Basic ${b64(`bot:${SECRET}`)}`);
    expect(new URLSearchParams(sent.url.split('?')[1]).get('key')).toBe(SECRET);
    expect(new URLSearchParams(sent.body).get('key')).toBe(SECRET);

    const steps = Object.fromEntries(run.steps.map((s: any) => [s.id, s]));
    expect(steps.query.input.url).toBe(`${rx.url}/q?key=[secret API_KEY]`);
    expect(steps.query.input.body).toBe('key=[secret API_KEY]&other=plain');
    expect(steps.query.output.body.sawAuthorization).toBe('Basic [derived from secret API_KEY]');
    expect(steps.query.output.headers['set-cookie']).toBe('[redacted]');
    expect(steps.query.output.headers['x-api-key']).toBe('[redacted]');
    expect(steps.query.output.headers['x-request-id']).toBe('r-1');
    expect(steps.derive.output).toEqual({
      up: '[derived from secret API_KEY]',
      b64: '[derived from secret API_KEY]',
      url: '[derived from secret API_KEY]',
      spaced: '[derived from secret API_KEY]',
      sliced: '[derived from secret API_KEY]',
      letters: '[derived from secret API_KEY]',
      mixed: 'user {{ trigger.user }} with [derived from secret API_KEY]',
    });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'HTTP_STATUS', stepId: 'fail' } });
    expect(run.error.message).toBe(`GET ${rx.url}/missing/[derived from secret API_KEY] answered 404`);
    const text = JSON.stringify(run);
    for (const form of forms) expect(text).not.toContain(form);
    expect(text).not.toContain('server-issued-key-777');
  });

  test('a Viewer reading every run, version and conversation finds no byte of the secret', async () => {
    const text = await viewerReads();
    expect(text).toContain('[secret API_KEY]');
    for (const form of forms) expect(text).not.toContain(form);
  });
});
