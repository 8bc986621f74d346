import AjvCompiler from '@fastify/ajv-compiler';
import { FormData, request } from 'undici';
import { call, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';

/**
 * Real answers of the converted route modules (issue 23, item 1), over real HTTP, validated with
 * ajv against the response schema `/openapi.json` declares for their status: a field the server
 * sends that the document does not declare (exact objects), a missing required field, a wrong
 * type, format or enum fails here. Each module is walked through a few of its routes.
 */

let server: TestServer;
/** Compiles a schema with Fastify's own ajv (ajv 8 and ajv-formats), strict about types: no coercion, no defaults, nothing removed. */
let compile: (schema: object) => ValidateFunction;
let document: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
/** A compiled validator: true when valid, else its `errors`. */
type ValidateFunction = ((data: unknown) => boolean) & { errors?: unknown };
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  server = await startServer();
  document = (await call(server.url, 'GET', '/openapi.json')).body;
  // OpenAPI 3.0 schemas (`nullable`, formats); the document itself is an external schema, so its refs resolve.
  const build = AjvCompiler()({ openapi: { ...document, $id: 'openapi' } }, {
    customOptions: { strict: false, allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false },
  } as never);
  compile = (schema) => build({ schema, method: 'GET', url: '/', httpPart: 'body' }) as unknown as ValidateFunction;
});
afterAll(() => server.close());

/** The validator of the declared response of `method` `route` (as documented, e.g. `/api/v1/medias/{mediaId}`) for `status`. */
function declared(method: string, route: string, status: number): ValidateFunction {
  const key = `${method} ${route} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const operation = document.paths[route]?.[method.toLowerCase()];
    if (!operation?.responses[String(status)]?.content) throw new Error(`no declared ${status} response for ${method} ${route}`);
    const pointer = ['paths', route, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']
      .map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1')))
      .join('/');
    validate = compile({ $ref: `openapi#/${pointer}` });
    validators.set(key, validate);
  }
  return validate;
}

/** Calls `method` `path` and checks the answer against the declared schema of `route` for the status it came with. */
async function conforms(method: string, route: string, path: string, opts: { body?: unknown; status?: number } = {}) {
  const res = await call(server.url, method, path, { token: server.token, body: opts.body });
  expect(res.status).toBe(opts.status ?? 200);
  const validate = declared(method, route, res.status);
  expect({ path, errors: validate(res.body) ? null : validate.errors }).toEqual({ path, errors: null });
  return res.body;
}

describe('answers match the declared response schemas', () => {
  test('the validator rejects an undeclared field and a missing one (exact objects)', () => {
    const validate = declared('GET', '/api/v1/workspaces', 200);
    const good = { ok: true, items: [{ id: 'w', name: 'W', role: 'Owner' }] };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, items: [{ ...good.items[0], extra: 1 }] })).toBe(false);
    expect(validate({ ok: true, items: [{ id: 'w', name: 'W' }] })).toBe(false);
  });

  test('workspaces, folders, secrets', async () => {
    await conforms('GET', '/api/v1/me', '/api/v1/me');
    await conforms('GET', '/api/v1/workspaces', '/api/v1/workspaces');
    const folders = '/api/v1/workspaces/{workspaceId}/folders';
    await conforms('GET', folders, `/api/v1/workspaces/${server.workspaceId}/folders`);
    await conforms('POST', folders, `/api/v1/workspaces/${server.workspaceId}/folders`, { body: { name: 'Schemas' } });
    await conforms('POST', folders, `/api/v1/workspaces/${server.workspaceId}/folders`, { body: { name: 'a\nb' }, status: 400 });
    const secret = '/api/v1/workspaces/{workspaceId}/secrets/{name}';
    await conforms('PUT', secret, `/api/v1/workspaces/${server.workspaceId}/secrets/API_KEY`, { body: { value: 's3cret' } });
    const listed = await conforms('GET', '/api/v1/workspaces/{workspaceId}/secrets', `/api/v1/workspaces/${server.workspaceId}/secrets`);
    expect(JSON.stringify(listed)).not.toContain('s3cret');
    await conforms('DELETE', secret, `/api/v1/workspaces/${server.workspaceId}/secrets/API_KEY`);
  });

  test('comments', async () => {
    const projectId = await newProject(server, 'Comments');
    const [task] = await addTasks(server, projectId, ['A task']);
    const taskId = task!.id;
    const route = '/api/v1/projects/{projectId}/tasks/{taskId}/comments';
    await conforms('POST', route, `/api/v1/projects/${projectId}/tasks/${taskId}/comments`, { body: { text: 'First\nsecond line' } });
    await conforms('GET', route, `/api/v1/projects/${projectId}/tasks/${taskId}/comments`);
    await conforms('GET', route, `/api/v1/projects/${projectId}/tasks/${taskId}/comments?limit=0`, { status: 400 });
  });

  test('agents', async () => {
    const created = await conforms('POST', '/api/v1/folders/{folderId}/agents', `/api/v1/folders/${server.workspaceId}/agents`, {
      body: { name: 'Helper', data: { data: { tone: 'neutral', commands: [{ name: 'Sum', prompt: 'Sum up {{ input }}' }] } } },
    });
    const agentId = created.item.id as string;
    await conforms('GET', '/api/v1/folders/{folderId}/agents', `/api/v1/folders/${server.workspaceId}/agents?search=help`);
    await conforms('PATCH', '/api/v1/agents/{agentId}', `/api/v1/agents/${agentId}`, { body: { data: { description: 'Helps' } } });
    await conforms('GET', '/api/v1/agents/{agentId}', `/api/v1/agents/${agentId}`);
    await conforms('GET', '/api/v1/agents/{agentId}', '/api/v1/agents/missing', { status: 404 });
    await conforms('DELETE', '/api/v1/agents/{agentId}', `/api/v1/agents/${agentId}`);
  });

  test('media', async () => {
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const upload = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
      body: form,
    });
    expect(upload.statusCode).toBe(200);
    const uploaded = (await upload.body.json()) as { item: { id: string } };
    const validate = declared('POST', '/api/v1/folders/{folderId}/medias', 200);
    expect(validate(uploaded) ? null : validate.errors).toBeNull();
    await conforms('GET', '/api/v1/folders/{folderId}/medias', `/api/v1/folders/${server.workspaceId}/medias`);
    await conforms('GET', '/api/v1/medias/{mediaId}', `/api/v1/medias/${uploaded.item.id}`);
    await conforms('DELETE', '/api/v1/medias/{mediaId}', `/api/v1/medias/${uploaded.item.id}`);
  });

  test('share links, conversations, public agents', async () => {
    const projectId = await newProject(server, 'Shared');
    const share = '/api/v1/projects/{projectId}/shareLink';
    expect((await conforms('GET', share, `/api/v1/projects/${projectId}/shareLink`)).item).toBeNull();
    await conforms('PUT', share, `/api/v1/projects/${projectId}/shareLink`);
    await conforms('GET', share, `/api/v1/projects/${projectId}/shareLink`);
    await conforms('DELETE', share, `/api/v1/projects/${projectId}/shareLink`);
    const created = await conforms('POST', '/api/v1/folders/{folderId}/agents', `/api/v1/folders/${server.workspaceId}/agents`, {
      body: { name: 'Talker', data: { data: { commands: [{ name: 'Echo', prompt: 'Say {{ input }}' }] } } },
    });
    const agentId = created.item.id as string;
    const ran = await conforms('POST', '/api/v1/agents/{agentId}/convos', `/api/v1/agents/${agentId}/convos`, {
      body: { command: 'Echo', input: 'hi' },
    });
    await conforms('GET', '/api/v1/agents/{agentId}/convos', `/api/v1/agents/${agentId}/convos`);
    await conforms('GET', '/api/v1/agents/{agentId}/convos/{convoId}', `/api/v1/agents/${agentId}/convos/${ran.item.id}`);
    await conforms(
      'POST',
      '/api/v1/agents/{agentId}/convos/{convoId}/messages',
      `/api/v1/agents/${agentId}/convos/${ran.item.id}/messages`,
      { body: { text: 'more' } },
    );
    const enabled = await conforms('PUT', '/api/v1/agents/{agentId}/publicAccess', `/api/v1/agents/${agentId}/publicAccess`);
    await conforms('PATCH', '/api/v1/agents/{agentId}/public-agent', `/api/v1/agents/${agentId}/public-agent`, {
      body: { preferences: { mode: 'chat', theme: 'system', canCopyKnowledge: true, meta: { title: 'T' } } },
    });
    await conforms('GET', '/api/v1/agents/{agentId}/public-agent', `/api/v1/agents/${agentId}/public-agent`);
    const publicId = (enabled.publicUrl as string).split('/').pop()!;
    await conforms('GET', '/api/v1/public-agents/{publicAgentId}', `/api/v1/public-agents/${publicId}`);
    await conforms('DELETE', '/api/v1/agents/{agentId}/publicAccess', `/api/v1/agents/${agentId}/publicAccess`);
  });

  test('runs: a waiting run, its event, the lists and the metrics', async () => {
    const made = await call(server.url, 'POST', '/api/v1/automations', {
      token: server.token,
      body: {
        workspaceId: server.workspaceId,
        name: 'Waits',
        trigger: { type: 'webhook' },
        actions: [{ id: 'signal', type: 'wait.event', event: 'go' }],
      },
    });
    expect(made.status).toBe(200);
    const automationId = made.body.item.id as string;
    const run = await conforms('POST', '/api/v1/automations/{automationId}/test', `/api/v1/automations/${automationId}/test`, {
      body: { payload: { a: 1 } },
    });
    expect(run.item.status).toBe('waiting');
    const runId = run.item.id as string;
    await conforms('GET', '/api/v1/automations/{automationId}/runs', `/api/v1/automations/${automationId}/runs?status=waiting`);
    await conforms('GET', '/api/v1/workspaces/{workspaceId}/runs', `/api/v1/workspaces/${server.workspaceId}/runs`);
    await conforms('GET', '/api/v1/workspaces/{workspaceId}/approvals', `/api/v1/workspaces/${server.workspaceId}/approvals`);
    await conforms('POST', '/api/v1/runs/{runId}/events/{event}', `/api/v1/runs/${runId}/events/go`, { body: { ok: true } });
    await conforms('GET', '/api/v1/automations/{automationId}/runs/{runId}', `/api/v1/automations/${automationId}/runs/${runId}`);
    await conforms('GET', '/api/v1/automations/{automationId}/metrics', `/api/v1/automations/${automationId}/metrics`);
    await conforms('POST', '/api/v1/approvals/inspect', '/api/v1/approvals/inspect', { body: { token: 'nope' }, status: 400 });
  });

  test('webhooks and legacy subscriptions', async () => {
    const registered = await conforms('POST', '/api/v2/webhooks', '/api/v2/webhooks', {
      body: { targetUrl: 'https://hooks.example.com/schemas', events: ['task.due', 'comment.created'] },
    });
    const id = encodeURIComponent(registered.webhook.id as string);
    await conforms('GET', '/api/v2/webhooks', '/api/v2/webhooks');
    await conforms('GET', '/api/v2/webhooks/{id}', `/api/v2/webhooks/${id}`);
    await conforms('GET', '/api/v2/webhooks/{id}/deliveries', `/api/v2/webhooks/${id}/deliveries?status=pending`);
    await conforms('DELETE', '/api/v2/webhooks/{id}', `/api/v2/webhooks/${id}`);
    const subscribed = await conforms('POST', '/api/v2/subscribeWebhook', '/api/v2/subscribeWebhook', {
      body: { targetUrl: 'https://hooks.example.com/legacy', triggerType: 'task.due' },
    });
    await conforms('GET', '/api/v2/subscriptions', '/api/v2/subscriptions');
    await conforms('POST', '/api/v2/unsubscribeWebhook', '/api/v2/unsubscribeWebhook', { body: { hookId: subscribed.hookId } });
  });
});
