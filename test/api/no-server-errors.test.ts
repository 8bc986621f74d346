import { FormData } from 'undici';
import { addUser, call, client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

/**
 * "No client input may produce a 500": every operation of the OpenAPI document, with real ids
 * (so requests get past the 404s into the validators and domain code) and with unknown ones,
 * is sent malformed bodies and odd query values. Every answer must be a 2xx or 4xx in the
 * error envelope, never a 5xx.
 */
describe('no client input produces a server error', () => {
  let server: TestServer;
  let ids: Record<string, string>;
  let viewer: string;

  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000' } });
    const api = client(server, OWNER_TOKEN);
    const project = (
      await api.post('/api/v1/projects', { folderId: server.workspaceId, contentType: 'text/markdown', content: '# P\n- a\n  - b' })
    ).body.item;
    const tasks = (await api.get(`/api/v1/projects/${project.id}/tasks`)).body.items;
    const field = (await api.post(`/api/v1/projects/${project.id}/fields`, { name: 'F', type: 'number' })).body.item;
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'A',
        data: { type: 'agent', data: { commands: [{ name: 'c', prompt: 'p', mode: 'default' }] } },
      })
    ).body.item;
    const convo = (await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'c', input: 'x' })).body.item;
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'a.txt');
    const media = JSON.parse(
      await (
        await fetch(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
          method: 'POST',
          headers: { authorization: `Bearer ${OWNER_TOKEN}` },
          body: form as never,
        })
      ).text(),
    ).item;
    const automation = (
      await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'W',
        trigger: { type: 'webhook' },
        actions: [{ id: 'ok', type: 'approval' }],
      })
    ).body.item;
    const webhookId = new URL(automation.webhook.url).pathname.split('/').pop()!;
    await call(server.url, 'POST', `/webhooks/${webhookId}`, { body: { a: 1 } });
    const runs = await waitFor(async () => {
      const items: { id: string }[] = (await api.get(`/api/v1/automations/${automation.id}/runs`)).body.items;
      return items.length > 0 && items;
    }, 'the first run of the webhook automation');
    const hook = (await api.post('/api/v2/webhooks', { targetUrl: 'https://example.invalid/hook', events: ['task.assigned'] })).body
      .webhook;
    ids = {
      workspaceId: server.workspaceId,
      folderId: server.workspaceId,
      projectId: project.id,
      taskId: tasks[1].id,
      fieldId: field.id,
      agentId: agent.id,
      convoId: convo.id,
      mediaId: media.id,
      automationId: automation.id,
      runId: runs[0].id,
      id: encodeURIComponent(hook.id),
      webhookId,
      assigneeHandle: 'owner',
      handle: 'owner',
    };
    viewer = addUser(server, 'sweeper', { workspaceId: server.workspaceId, role: 'Viewer' });
  });
  afterAll(() => server.close());

  /** Bodies sent as JSON, plus a few with other content types. */
  const odd: [string, string][] = [
    ['text/plain', '{"name":"x"}'],
    ['application/x-www-form-urlencoded', 'name=x&tasks=1'],
    ['multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc'],
    ['multipart/form-data', 'garbage'],
    ['application/json', '['.repeat(5000) + ']'.repeat(5000)],
  ];
  const bodies: (string | undefined)[] = [
    undefined,
    '',
    '{}',
    '[]',
    'null',
    '"text"',
    '12',
    '{"a":',
    JSON.stringify({ tasks: [{}], content: 5, contentType: [], target: 'x', handles: 'x', value: { a: 1 }, name: null, data: [] }),
    JSON.stringify({
      tasks: 'x',
      folderId: {},
      text: 7,
      preferences: 'x',
      start: { date: 'x' },
      end: 5,
      type: {},
      events: [1],
      targetUrl: 'x',
    }),
    JSON.stringify({
      name: 'x'.repeat(5000),
      content: '\u0000\ud800',
      value: 1e308,
      limit: -1,
      trigger: { type: 'webhook' },
      actions: [{ type: 'x' }],
    }),
  ];
  /** The error envelope every 4xx answers with: `{ ok: false, error: { code: string, ... } }`. */
  function isErrorEnvelope(body: unknown): boolean {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
    const { ok, error } = body as { ok?: unknown; error?: unknown };
    return (
      ok === false &&
      typeof error === 'object' &&
      error !== null &&
      typeof (error as { code?: unknown }).code === 'string' &&
      (error as { code: string }).code.length > 0
    );
  }
  const queries = [
    '',
    '?limit=0',
    '?limit=abc',
    '?limit=99999999999999999999&page=-1',
    '?after=x&before=y',
    '?page=1e400',
    '?status=nope&requestId=',
  ];

  test('every operation, real and unknown ids, malformed bodies and queries: never a 5xx', async () => {
    const doc = (await call(server.url, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const failures: string[] = [];
    let sent = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        // An event stream never ends by itself; test/api/live.test.ts sends it odd input.
        if (JSON.stringify((operations[method] as { responses?: unknown }).responses ?? {}).includes('text/event-stream')) continue;
        for (const real of [true, false]) {
          const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
            real ? (ids[name] ?? 'x') : encodeURIComponent('nope/%..\u00e9'),
          );
          const cases: [string | undefined, string | undefined, string][] = [
            ...bodies.flatMap((body) =>
              (body === undefined ? queries : ['']).map(
                (q) => [body, body === undefined ? undefined : 'application/json', q] as [string | undefined, string | undefined, string],
              ),
            ),
            ...odd.map(([type, body]) => [body, type, ''] as [string, string, string]),
          ];
          for (const [body, type, query] of cases) {
            for (const token of real ? [OWNER_TOKEN, viewer] : [OWNER_TOKEN]) {
              const res = await call(server.url, method.toUpperCase(), path + query, {
                token,
                rawBody: body,
                headers: type === undefined ? {} : { 'content-type': type },
              });
              sent++;
              const what = `${method.toUpperCase()} ${path}${query} ${body ?? '(no body)'} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
              if (res.status >= 500) failures.push(what);
              else if (res.status >= 400 && !isErrorEnvelope(res.body)) failures.push(`not the error envelope: ${what}`);
            }
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(3000);
    expect(failures).toEqual([]);
  }, 300_000);
});
