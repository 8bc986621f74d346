import { addUser, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver } from '../automations/helpers';

/**
 * A piece end to end over real HTTP (docs/integrations.md): a WordPress connection (custom auth
 * with the site's URL) pointed at a fake WordPress on 127.0.0.1, a dynamic dropdown computed by
 * the piece through the API, an automation whose step creates a post, what the fake received and
 * the step's output; the connection's password is in no answer a Viewer can read.
 */
describe('pieces: WordPress against a fake site', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let site: Awaited<ReturnType<typeof receiver>>;
  const PASSWORD = 'app-pass-Q7x9-Zk2m';

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    site = await receiver((r) => {
      if (r.method === 'GET' && r.url.startsWith('/wp-json/wp/v2/categories'))
        return {
          status: 200,
          headers: { 'x-wp-totalpages': '1' },
          body: [
            { id: 3, name: 'News' },
            { id: 5, name: 'Releases' },
          ],
        };
      if (r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/posts'))
        // The answer echoes the credentials: the run must record them masked.
        return {
          status: 201,
          body: {
            id: 42,
            link: 'https://blog.example/hello',
            title: { rendered: JSON.parse(r.body).title },
            echo: r.headers.authorization,
          },
        };
      if (r.url === '/') return { status: 200, body: '<html>blog</html>' };
      if (r.url.startsWith('/wp-json/wp/v2/users/me')) return { status: 200, body: { id: 1, name: 'Ann' } };
      return { status: 404, body: { code: 'rest_no_route' } };
    });
  });
  afterAll(async () => {
    await site.close();
    await server.close();
  });

  const connectionFor = async (name: string, url: string) => {
    const res = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'wordpress',
      name,
      auth: { type: 'CUSTOM_AUTH', props: { username: 'ann', password: PASSWORD, website_url: url } },
    });
    expect(res.status).toBe(200);
    return res.body.item;
  };

  test('the catalogue lists WordPress actions as kinds with their parameters', async () => {
    const { body } = await api.get('/api/v1/automations/kinds');
    const kind = body.actions.find((k: any) => k.type === 'wordpress.create_post');
    expect(kind).toMatchObject({
      title: 'Create Post',
      category: 'WordPress',
      piece: { name: 'wordpress', packageName: '@activepieces/piece-wordpress' },
    });
    expect(kind.parameters.required).toEqual(['connectionId', 'props']);
    expect(kind.parameters.properties.connectionId['x-picker']).toBe('connection');
    const props = kind.parameters.properties.props.properties;
    expect(props.title).toMatchObject({ type: 'string', title: 'Title' });
    expect(props.status.enum).toEqual(expect.arrayContaining(['publish', 'draft']));
    expect(props.categories['x-options']).toBeDefined();
  });

  test('a connection, a dynamic dropdown, a step that creates a post; the password is shown nowhere', async () => {
    const connection = await connectionFor('Blog', site.url);
    expect(connection).toMatchObject({ piece: 'wordpress', name: 'Blog', authType: 'CUSTOM_AUTH' });
    expect(JSON.stringify(connection)).not.toContain(PASSWORD);

    const options = await api.post('/api/v1/automations/kinds/wordpress.create_post/options', {
      workspaceId: server.workspaceId,
      prop: 'categories',
      connectionId: connection.id,
    });
    expect([options.status, options.body]).toEqual([200, expect.anything()]);
    expect(options.body.item.options).toEqual([
      { label: 'News', value: 3 },
      { label: 'Releases', value: 5 },
    ]);

    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Post to the blog',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'post',
          type: 'wordpress.create_post',
          connectionId: connection.id,
          props: { title: '{{ trigger.title }}', content: 'Body of {{ trigger.title }}', status: 'draft', categories: [3] },
        },
      ],
    });
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { title: 'Hello' } })).body.item;
    expect(run.status).toBe('completed');
    const sent = site.received.find((r) => r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/posts'))!;
    expect(JSON.parse(sent.body)).toMatchObject({ title: 'Hello', content: 'Body of Hello', status: 'draft', categories: [3] });
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`);
    expect(run.steps[0].output).toMatchObject({ status: 201, body: { id: 42, link: 'https://blog.example/hello' } });
    expect(run.steps[0].output.body.echo).toMatch(/^Basic \[secret connection Blog/);

    // Nothing a Viewer can read holds the password: connections, the automation, its runs.
    const viewer = client(server, addUser(server, 'vera', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const answers = [
      await viewer.get(`/api/v1/workspaces/${server.workspaceId}/connections`),
      await viewer.get(`/api/v1/workspaces/${server.workspaceId}/connections/${connection.id}`),
      await viewer.get(`/api/v1/automations/${automation.id}`),
      await viewer.get(`/api/v1/automations/${automation.id}/runs`),
      await viewer.get(`/api/v1/automations/${automation.id}/runs/${run.id}`),
      await viewer.get('/api/v1/automations/kinds'),
    ];
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers[0]!.body.items.map((c: any) => c.id)).toEqual([connection.id]);
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(Buffer.from(`ann:${PASSWORD}`).toString('base64'));
    }
    // A Viewer cannot make one.
    expect(
      (
        await viewer.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
          piece: 'wordpress',
          name: 'x',
          auth: { type: 'CUSTOM_AUTH', props: {} },
        })
      ).status,
    ).toBe(403);
  });

  test('connections are checked against the piece; a step on another piece’s connection fails', async () => {
    const bad = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'wordpress',
      name: 'Half',
      auth: { type: 'CUSTOM_AUTH', props: { username: 'ann' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('auth.props.password');
    const wrongType = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'wordpress',
      name: 'T',
      auth: { type: 'SECRET_TEXT', secret_text: 'abcd' },
    });
    expect(wrongType.status).toBe(400);
    const unknown = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'no-such-piece',
      name: 'U',
      auth: { type: 'SECRET_TEXT', secret_text: 'abcd' },
    });
    expect(unknown.status).toBe(400);
    const save = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'No such connection',
      trigger: { type: 'webhook' },
      actions: [{ type: 'wordpress.create_post', connectionId: 'nope', props: { title: 'a', content: 'b' } }],
    });
    expect(save.status).toBe(400);
    expect(save.body.error.details.field).toBe('actions[0].connectionId');
    const missing = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'No title',
      trigger: { type: 'webhook' },
      actions: [{ type: 'wordpress.create_post', connectionId: 'nope', props: { content: 'b' } }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.field).toBe('actions[0].props.title');
  });

  test('rename, test with the piece’s own check, delete', async () => {
    const connection = await connectionFor('Checked', site.url);
    const renamed = await api.patch(`/api/v1/workspaces/${server.workspaceId}/connections/${connection.id}`, { name: 'Checked 2' });
    expect(renamed.body.item.name).toBe('Checked 2');
    const tested = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections/${connection.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.item.checked).toBe(true);
    expect((await api.delete(`/api/v1/workspaces/${server.workspaceId}/connections/${connection.id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/workspaces/${server.workspaceId}/connections/${connection.id}`)).status).toBe(404);
  });
});
