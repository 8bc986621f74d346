import { addUser, call, startServer, type TestServer } from '../helpers/server';
import { declaredSchemas, type DeclaredSchemas } from '../helpers/declared-schemas';

/**
 * Real answers of the automation routes (issue 23, item 1), over real HTTP, validated against the
 * response schema `/openapi.json` declares for their status (exact objects: an undeclared field
 * fails, so does a missing required one). The optional fields an automation may carry (retention,
 * time limit, concurrency, the inbound URL with its token and form page, the redacted paths a
 * Viewer gets) are checked to survive serialization.
 */

let server: TestServer;
let schemas: DeclaredSchemas;
let viewerToken: string;

beforeAll(async () => {
  server = await startServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1' } });
  schemas = await declaredSchemas(server);
  viewerToken = addUser(server, 'val', { workspaceId: server.workspaceId, role: 'Viewer' });
});
afterAll(() => server.close());

const http = {
  id: 'call',
  type: 'http.request',
  method: 'GET',
  url: 'https://example.org/x',
  headers: { Authorization: 'Bearer literal-secret' },
  retry: { maxAttempts: 2 },
};
const definition = {
  name: 'Hook',
  description: 'All the optional fields',
  trigger: { type: 'webhook', requireToken: true },
  actions: [{ id: 'ok', type: 'approval' }, http],
  timeoutMs: 60_000,
  concurrency: 3,
  retention: { days: 5, failedDays: 9 },
};

test('the validator rejects an undeclared field and a missing one (exact objects)', () => {
  const validate = schemas.declared('GET', '/api/v1/automations/{automationId}/versions', 200);
  const good = { ok: true, items: [{ version: 1, createdAt: '2026-01-01T00:00:00.000Z', current: true }] };
  expect(validate(good)).toBe(true);
  expect(validate({ ok: true, items: [{ ...good.items[0], author: { handle: 'owner' }, message: 'm' }] })).toBe(true);
  expect(validate({ ok: true, items: [{ ...good.items[0], rank: 1 }] })).toBe(false);
  expect(validate({ ok: true, items: [{ version: 1, current: true }] })).toBe(false);
});

test('automations: create, read (Owner and Viewer), update, enable, versions, restore, test run, delete', async () => {
  const { conforms, declared } = schemas;
  const created = await conforms('POST', '/api/v1/automations', '/api/v1/automations', {
    body: { workspaceId: server.workspaceId, message: 'first', ...definition },
  });
  const item = created.item;
  expect(item).toMatchObject({ ...definition, enabled: true, version: 1, owner: { handle: 'owner' }, webhook: { requiresToken: true } });
  expect(item.webhook.token).toEqual(expect.any(String));
  const id = item.id as string;
  const form = await conforms('POST', '/api/v1/automations', '/api/v1/automations', {
    body: {
      workspaceId: server.workspaceId,
      enabled: false,
      name: 'Form',
      trigger: { type: 'form', title: 'F', fields: [{ name: 'email', type: 'text', label: 'Email' }] },
      actions: [],
    },
  });
  expect(form.item.webhook.formUrl).toEqual(expect.any(String));

  const listed = await conforms('GET', '/api/v1/automations', `/api/v1/automations?workspaceId=${server.workspaceId}`);
  expect(listed.items.map((a: { name: string }) => a.name)).toEqual(['Hook', 'Form']);
  expect((await conforms('GET', '/api/v1/automations/{automationId}', `/api/v1/automations/${id}`)).item).toMatchObject(definition);

  // A Viewer reads the credential redacted, with its path.
  for (const [route, path] of [
    ['/api/v1/automations/{automationId}', `/api/v1/automations/${id}`],
    ['/api/v1/automations/{automationId}/versions/{version}', `/api/v1/automations/${id}/versions/1`],
  ] as const) {
    const seen = await call(server.url, 'GET', path, { token: viewerToken });
    expect(seen.status).toBe(200);
    const validate = declared('GET', route, 200);
    expect({ path, errors: validate(seen.body) ? null : validate.errors }).toEqual({ path, errors: null });
    expect(seen.body.item.redacted).toEqual(['actions[1].headers.Authorization']);
  }

  const updated = await conforms('PUT', '/api/v1/automations/{automationId}', `/api/v1/automations/${id}`, {
    body: { ...definition, name: 'Hook 2', message: 'second' },
  });
  expect(updated.item).toMatchObject({ name: 'Hook 2', version: 2, retention: definition.retention });
  await conforms('POST', '/api/v1/automations/{automationId}/disable', `/api/v1/automations/${id}/disable`);
  await conforms('POST', '/api/v1/automations/{automationId}/enable', `/api/v1/automations/${id}/enable`);

  const versions = await conforms('GET', '/api/v1/automations/{automationId}/versions', `/api/v1/automations/${id}/versions`);
  expect(versions.items.map((v: { version: number; message?: string }) => [v.version, v.message])).toEqual([
    [2, 'second'],
    [1, 'first'],
  ]);
  const first = await conforms('GET', '/api/v1/automations/{automationId}/versions/{version}', `/api/v1/automations/${id}/versions/1`);
  expect(first.item).toMatchObject({ ...definition, version: 1, current: false, author: { handle: 'owner' }, message: 'first' });
  const restored = await conforms(
    'POST',
    '/api/v1/automations/{automationId}/versions/{version}/restore',
    `/api/v1/automations/${id}/versions/1/restore`,
    { body: {} },
  );
  expect(restored.item).toMatchObject({ name: 'Hook', version: 3 });

  const run = await conforms('POST', '/api/v1/automations/{automationId}/test', `/api/v1/automations/${id}/test`, {
    body: { payload: { a: 1 } },
  });
  expect(run.item).toMatchObject({ status: 'waiting', test: true });
  await conforms('POST', '/api/v1/automations/{automationId}/test', `/api/v1/automations/${id}/test`, {
    body: { payload: 1 },
    status: 400,
  });
  await conforms('DELETE', '/api/v1/automations/{automationId}', `/api/v1/automations/${form.item.id}`);
});

test('export, import, step test, the published schema and the kinds', async () => {
  const { conforms } = schemas;
  const made = await conforms('POST', '/api/v1/automations', '/api/v1/automations', {
    body: { workspaceId: server.workspaceId, ...definition, actions: [{ id: 'greet', type: 'set', values: { a: '1' } }, http] },
  });
  const id = made.item.id as string;
  const document = await conforms('GET', '/api/v1/automations/{automationId}/export', `/api/v1/automations/${id}/export`);
  expect(document.definition).toMatchObject({ timeoutMs: 60_000, concurrency: 3, retention: definition.retention });
  expect(document.redacted).toEqual(['actions[1].headers.Authorization']);
  document.definition.actions[1].headers.Authorization = 'Bearer another-literal';
  const imported = await conforms('POST', '/api/v1/automations/import', '/api/v1/automations/import', {
    body: { workspaceId: server.workspaceId, document, name: 'Imported' },
  });
  expect(imported.item).toMatchObject({ name: 'Imported', enabled: false, retention: definition.retention });

  const tested = await conforms(
    'POST',
    '/api/v1/automations/{automationId}/steps/{stepId}/test',
    `/api/v1/automations/${id}/steps/greet/test`,
    { body: {} },
  );
  expect(tested.item).toMatchObject({ stepId: 'greet', status: 'succeeded', output: { a: '1' } });
  await conforms('GET', '/api/v1/automations/schema', '/api/v1/automations/schema');
  await conforms('GET', '/api/v1/automations/kinds', '/api/v1/automations/kinds');
});
