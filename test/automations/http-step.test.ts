import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, runCli, type TestServer } from '../helpers/server';
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

/** A server that reads multipart bodies with the platform's own parser (WHATWG `Response.formData`). */
async function multipartReceiver() {
  const received: { url: string; fields: Record<string, string>; files: Record<string, { name: string; type: string; bytes: Buffer }> }[] =
    [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      const entry: (typeof received)[number] = { url: req.url!, fields: {}, files: {} };
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') entry.fields[name] = value;
        else entry.files[name] = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      }
      received.push(entry);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Uploads `bytes` as a media item of the workspace's home folder; resolves to its id. */
async function uploadMedia(server: TestServer, name: string, type: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { item: { id: string } }).item.id;
}

describe('http.request: multipart bodies with workspace media', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof multipartReceiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await multipartReceiver();
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  async function run(actions: unknown[], payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'Upload', trigger: { type: 'webhook' }, actions });
    return (await api.post(`/api/v1/automations/${automation.id}/test`, { payload })).body.item;
  }

  test('text fields and media files arrive as multipart/form-data; the journal holds ids, not bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
    const mediaId = await uploadMedia(server, 'chart.png', 'image/png', bytes);
    const done = await run(
      [
        {
          id: 'up',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/upload`,
          body: {
            type: 'multipart',
            parts: [
              { name: 'title', value: 'Report {{ trigger.n }}' },
              { name: 'file', mediaId: '{{ trigger.mediaId }}' },
              { name: 'copy', mediaId, filename: 'renamed-{{ trigger.n }}.png' },
            ],
          },
        },
      ],
      { n: 3, mediaId },
    );
    expect(done.status).toBe('completed');
    const got = rx.received.at(-1)!;
    expect(got.fields).toEqual({ title: 'Report 3' });
    expect(got.files.file).toMatchObject({ name: 'chart.png', type: 'image/png' });
    expect(got.files.file!.bytes.equals(bytes)).toBe(true);
    expect(got.files.copy!.name).toBe('renamed-3.png');
    expect(got.files.copy!.bytes.equals(bytes)).toBe(true);
    expect(done.steps[0].input.multipart).toEqual([
      { name: 'title', value: 'Report 3' },
      { name: 'file', mediaId },
      { name: 'copy', mediaId, filename: 'renamed-3.png' },
    ]);
  });

  test('bad parts: refused at save with the field named, or failing the run with a clear code', async () => {
    const save = (parts: unknown[], method = 'POST') =>
      api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad',
        trigger: { type: 'webhook' },
        actions: [{ id: 'x', type: 'http.request', method, url: `${rx.url}/x`, body: { type: 'multipart', parts } }],
      });
    for (const parts of [[{ value: 'no name' }], [{ name: 'both', value: 'a', mediaId: 'm' }], [{ name: 'a"b', value: 'quote' }], []]) {
      const res = await save(parts);
      expect(res.status).toBe(400);
      expect(res.body.error.details.field).toMatch(/^actions\[0\]\.body/);
    }
    const unknown = await run([
      {
        id: 'x',
        type: 'http.request',
        method: 'POST',
        url: `${rx.url}/x`,
        body: { type: 'multipart', parts: [{ name: 'f', mediaId: 'no-such-media' }] },
      },
    ]);
    expect(unknown).toMatchObject({ status: 'failed', error: { code: 'MEDIA_NOT_FOUND', stepId: 'x', transient: false } });
    const get = await run([
      { id: 'x', type: 'http.request', method: 'GET', url: `${rx.url}/x`, body: { type: 'multipart', parts: [{ name: 'a', value: 'b' }] } },
    ]);
    expect(get).toMatchObject({ status: 'failed', error: { code: 'INVALID_INPUT' } });
  });

  test("a media item of another workspace is refused, even one the automation's owner can read", async () => {
    const other = /created workspace (\S+)/.exec(runCli(server.dataDir, 'workspace', 'create', 'Other', '--owner', 'owner').out)![1]!;
    const mediaId = await uploadMedia({ ...server, workspaceId: other }, 'private.txt', 'text/plain', Buffer.from('not yours'));
    expect((await api.get(`/api/v1/medias/${mediaId}`)).status).toBe(200);
    const before = rx.received.length;
    const refused = await run([
      { id: 'x', type: 'http.request', method: 'POST', url: `${rx.url}/x`, body: { type: 'multipart', parts: [{ name: 'f', mediaId }] } },
    ]);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'MEDIA_NOT_FOUND', stepId: 'x' } });
    expect(rx.received.length).toBe(before);
  });
});

describe('http.request: pagination into one list', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver((r) => {
      const url = new URL(r.url, 'http://x');
      if (url.pathname === '/cursor') {
        // Three pages of two items; the cursor is the last id of the page.
        const after = Number(url.searchParams.get('after') ?? 0);
        const ids = [after + 1, after + 2];
        return {
          status: 200,
          body: {
            data: ids.map((id) => ({ id })),
            meta: { next: after + 2 < 6 ? String(after + 2) : null },
            auth: r.headers.authorization ?? null,
          },
        };
      }
      if (url.pathname === '/links') {
        const page = Number(url.searchParams.get('page') ?? 1);
        // Page 1: absolute, quoted; page 2: relative, unquoted, with another parameter (RFC 8288 allows both).
        const links = [
          `<${rxUrl()}/links?page=2>; rel="next", <${rxUrl()}/links?page=3>; rel="last"`,
          '<https://example.com/docs>; rel="help", </links?page=3>; title="3"; rel=next',
          `<${rxUrl()}/links?page=1>; rel="first"`,
        ];
        const next = links[page - 1]!;
        return { status: 200, headers: { link: next }, body: [`p${page}a`, `p${page}b`] };
      }
      if (url.pathname === '/to-metadata')
        return { status: 200, headers: { link: '<http://169.254.169.254/latest/meta-data/>; rel="next"' }, body: ['first'] };
      return { status: 404, body: 'none' };
    });
  });
  const rxUrl = () => rx.url;
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  async function run(action: Record<string, unknown>) {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Pages',
      trigger: { type: 'webhook' },
      actions: [{ id: 'list', type: 'http.request', method: 'GET', ...action }],
    });
    return (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
  }

  test('cursor: the cursor goes back as a query parameter until there is none; maxPages caps it', async () => {
    const all = await run({
      url: `${rx.url}/cursor`,
      headers: { Authorization: 'Bearer t' },
      pagination: { type: 'cursor', itemsPath: 'data', cursorPath: 'meta.next', paramName: 'after' },
    });
    expect(all.status).toBe('completed');
    expect(all.steps[0].output).toMatchObject({ status: 200, pages: 3, body: [1, 2, 3, 4, 5, 6].map((id) => ({ id })) });
    expect(rx.received.filter((r) => r.url.startsWith('/cursor')).map((r) => r.url)).toEqual([
      '/cursor',
      '/cursor?after=2',
      '/cursor?after=4',
    ]);
    const capped = await run({
      url: `${rx.url}/cursor`,
      pagination: { type: 'cursor', itemsPath: 'data', cursorPath: 'meta.next', paramName: 'after', maxPages: 2 },
    });
    expect(capped.steps[0].output).toMatchObject({ pages: 2, body: [1, 2, 3, 4].map((id) => ({ id })) });
  });

  test('Link header: rel="next" is followed to the last page', async () => {
    const done = await run({ url: `${rx.url}/links`, pagination: { type: 'linkHeader' } });
    expect(done.status).toBe('completed');
    expect(done.steps[0].output).toMatchObject({ status: 200, pages: 3, body: ['p1a', 'p1b', 'p2a', 'p2b', 'p3a', 'p3b'] });
    expect(rx.received.filter((r) => r.url.startsWith('/links')).map((r) => r.url)).toEqual(['/links', '/links?page=2', '/links?page=3']);
  });

  test('each next URL goes through the SSRF guard; a page without a list fails the step; bad settings are refused at save', async () => {
    const blocked = await run({ url: `${rx.url}/to-metadata`, pagination: { type: 'linkHeader' } });
    expect(blocked).toMatchObject({ status: 'failed', error: { code: 'BLOCKED_TARGET', stepId: 'list' } });
    const noList = await run({
      url: `${rx.url}/cursor`,
      pagination: { type: 'cursor', itemsPath: 'meta', cursorPath: 'meta.next', paramName: 'after' },
    });
    expect(noList).toMatchObject({ status: 'failed', error: { code: 'INVALID_RESPONSE' } });
    for (const pagination of [{ type: 'cursor', cursorPath: 'next' }, { type: 'linkHeader', maxPages: 0 }, { type: 'offset' }]) {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad',
        trigger: { type: 'webhook' },
        actions: [{ id: 'x', type: 'http.request', method: 'GET', url: `${rx.url}/x`, pagination }],
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.field).toMatch(/^actions\[0\]\.pagination/);
    }
  });
});
