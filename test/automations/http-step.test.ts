import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver } from './helpers';

/** The HTTP Request step's methods, raw bodies and redirects (docs/automations.md "Actions"). */
describe('http.request: methods, raw bodies, redirects', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver((r) => {
      if (r.url === '/moved') return { status: 302, headers: { location: '/final?from=moved' }, body: '' };
      if (r.url === '/see-other') return { status: 303, headers: { location: '/final?from=303' }, body: '' };
      if (r.url === '/loop') return { status: 307, headers: { location: '/loop' }, body: '' };
      if (r.url === '/to-metadata') return { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' }, body: '' };
      return {
        status: 200,
        body: {
          method: r.method,
          url: r.url,
          type: r.headers['content-type'] ?? null,
          body: r.body,
          auth: r.headers.authorization ?? null,
        },
      };
    });
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  async function run(actions: unknown[], payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'HTTP', trigger: { type: 'webhook' }, actions });
    return (await api.post(`/api/v1/automations/${automation.id}/test`, { payload })).body.item;
  }

  test('PATCH and HEAD; a raw XML body goes out as rendered with its content type', async () => {
    const done = await run(
      [
        { id: 'patch', type: 'http.request', method: 'PATCH', url: `${rx.url}/items/1`, body: { type: 'json', value: { done: true } } },
        { id: 'head', type: 'http.request', method: 'HEAD', url: `${rx.url}/items/1` },
        {
          id: 'xml',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/soap`,
          body: { type: 'raw', contentType: 'application/xml', value: '<order id="{{ trigger.id }}"/>' },
        },
        { id: 'text', type: 'http.request', method: 'PUT', url: `${rx.url}/note`, body: { type: 'raw', value: 'plain {{ trigger.id }}' } },
      ],
      { id: 7 },
    );
    expect(done.status).toBe('completed');
    const out = Object.fromEntries(done.steps.map((s: any) => [s.id, s.output]));
    expect(out.patch.body).toMatchObject({ method: 'PATCH', body: '{"done":true}', type: 'application/json' });
    expect(out.head).toMatchObject({ status: 200, body: '' });
    expect(rx.received.some((r) => r.method === 'HEAD' && r.url === '/items/1')).toBe(true);
    expect(out.xml.body).toMatchObject({ method: 'POST', type: 'application/xml', body: '<order id="7"/>' });
    expect(out.text.body).toMatchObject({ method: 'PUT', type: 'text/plain; charset=utf-8', body: 'plain 7' });
    const refused = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'x',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/x`,
          body: { type: 'raw', value: 'a', contentType: 'text/plain\r\nX-Evil: 1' },
        },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('actions[0].body');
  });

  test('redirects: not followed by default; followed on request, 303 turning into a GET; credentials kept on the same origin', async () => {
    const plain = await run([{ id: 'r', type: 'http.request', method: 'GET', url: `${rx.url}/moved`, failOnHttpError: false }]);
    expect(plain.steps[0].output).toMatchObject({ status: 302, headers: { location: '/final?from=moved' } });
    const followed = await run([
      {
        id: 'get',
        type: 'http.request',
        method: 'GET',
        url: `${rx.url}/moved`,
        headers: { Authorization: 'Bearer same-origin' },
        followRedirects: true,
      },
      {
        id: 'post',
        type: 'http.request',
        method: 'POST',
        url: `${rx.url}/see-other`,
        body: { type: 'json', value: { a: 1 } },
        followRedirects: true,
      },
    ]);
    expect(followed.status).toBe('completed');
    const [get, post] = followed.steps;
    expect(get.output).toMatchObject({
      status: 200,
      url: `${rx.url}/final?from=moved`,
      body: { method: 'GET', auth: 'Bearer same-origin' },
    });
    expect(post.output).toMatchObject({ status: 200, url: `${rx.url}/final?from=303`, body: { method: 'GET', body: '', type: null } });
  });

  test('each hop goes through the SSRF guard again; a loop stops at maxRedirects', async () => {
    const blocked = await run([{ id: 'r', type: 'http.request', method: 'GET', url: `${rx.url}/to-metadata`, followRedirects: true }]);
    expect(blocked).toMatchObject({ status: 'failed', error: { code: 'BLOCKED_TARGET', stepId: 'r' } });
    expect(blocked.error.message).toMatch(/169\.254\.169\.254/);
    const looped = await run([
      { id: 'r', type: 'http.request', method: 'GET', url: `${rx.url}/loop`, followRedirects: true, maxRedirects: 3 },
    ]);
    expect(looped).toMatchObject({ status: 'failed', error: { code: 'TOO_MANY_REDIRECTS' } });
    expect(rx.received.filter((r) => r.url === '/loop').length).toBe(4);
  });
});
