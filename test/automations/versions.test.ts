import { addUser, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runWithStatus } from './helpers';

/** Version history of an automation: list, read one, roll back; runs name their version. */
describe('automation versions', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let viewer: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    viewer = client(server, addUser(server, 'val', { workspaceId: server.workspaceId, role: 'Viewer' }));
  });
  afterAll(() => server?.close());

  const step = (name: string) => ({
    id: 'call',
    type: 'http.request',
    method: 'GET',
    url: `https://example.org/${name}`,
    headers: { Authorization: `Bearer secret-of-${name}` },
  });
  const definition = (name: string) => ({ name, trigger: { type: 'webhook' }, actions: [{ id: 'ok', type: 'approval' }, step(name)] });

  test('every save is a version; a run executes and names its version; rolling back makes a new version', async () => {
    const a = await createAutomation(api, server.workspaceId, definition('first'));
    expect((await api.put(`/api/v1/automations/${a.id}`, definition('second'))).body.item.version).toBe(2);
    const run = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    expect((await runWithStatus(api, a.id, run.id, 'waiting')).version).toBe(2);
    expect((await api.put(`/api/v1/automations/${a.id}`, definition('third'))).body.item.version).toBe(3);

    const versions = await api.get(`/api/v1/automations/${a.id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.items.map((v: { version: number; current: boolean }) => [v.version, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect(Date.parse(versions.body.items[0].createdAt)).toBeGreaterThan(0);

    const first = (await api.get(`/api/v1/automations/${a.id}/versions/1`)).body.item;
    expect(first).toMatchObject({ version: 1, name: 'first', trigger: { type: 'webhook' } });
    expect(first.actions[1].headers.Authorization).toBe('Bearer secret-of-first');
    // Members read old versions with credentials redacted, as they read the current one.
    const seen = (await viewer.get(`/api/v1/automations/${a.id}/versions/1`)).body.item;
    expect(seen.actions[1].headers.Authorization).not.toContain('secret-of-first');
    expect(seen.redacted).toEqual(['actions[1].headers.Authorization']);

    // The waiting run keeps executing version 2 after the automation moved on.
    expect((await api.post(`/api/v1/automations/${a.id}/runs/${run.id}/reject`)).body.item).toMatchObject({
      version: 2,
      status: 'rejected',
    });

    const restored = await api.post(`/api/v1/automations/${a.id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.item).toMatchObject({ version: 4, name: 'first' });
    expect((await api.get(`/api/v1/automations/${a.id}`)).body.item).toMatchObject({ version: 4, name: 'first' });
    expect((await api.get(`/api/v1/automations/${a.id}/versions`)).body.items.map((v: { version: number }) => v.version)).toEqual([
      4, 3, 2, 1,
    ]);
  });

  test('only the Owner rolls back; unknown versions are 404 and malformed ones 400', async () => {
    const a = await createAutomation(api, server.workspaceId, definition('only'));
    expect((await viewer.post(`/api/v1/automations/${a.id}/versions/1/restore`)).status).toBe(403);
    const missing = await api.get(`/api/v1/automations/${a.id}/versions/7`);
    expect(missing.status).toBe(404);
    expect((await api.post(`/api/v1/automations/${a.id}/versions/7/restore`)).status).toBe(404);
    expect((await api.get(`/api/v1/automations/${a.id}/versions/0`)).status).toBe(400);
    expect((await api.get(`/api/v1/automations/${a.id}/versions/latest`)).status).toBe(400);
    const stranger = client(server, addUser(server, 'stranger2'));
    expect((await stranger.get(`/api/v1/automations/${a.id}/versions`)).status).toBe(404);
  });
});
