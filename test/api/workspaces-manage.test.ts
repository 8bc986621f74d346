import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, issueTokens, signInCookie } from '../oauth/helpers';

/**
 * Creating and renaming workspaces, and the caller's display name (docs/api.md "Workspaces,
 * folders and the caller"), over real HTTP on whichever store the run uses.
 */
describe('workspace management and the profile', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD },
    });
  });
  afterAll(() => server.close());

  test('any account creates a workspace and becomes its Owner; the workspace has a home folder and takes projects', async () => {
    const dana = client(server, addUser(server, 'wm-dana'));
    expect((await dana.get('/api/v1/workspaces')).body.items).toEqual([]);
    const created = await dana.post('/api/v1/workspaces', {
      name: '  Marketing  ',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      ok: true,
      item: { id: expect.any(String), name: 'Marketing', role: 'Owner' },
    });
    const id = created.body.item.id as string;
    expect((await dana.get('/api/v1/workspaces')).body.items).toEqual([{ id, name: 'Marketing', role: 'Owner' }]);
    expect((await dana.get(`/api/v1/workspaces/${id}/folders`)).body.items).toEqual([
      { id, name: 'Home', workspaceId: id, parentId: null, isHome: true },
    ]);
    expect((await dana.get(`/api/v1/workspaces/${id}/members`)).body.items).toEqual([
      expect.objectContaining({ handle: 'wm-dana', role: 'Owner' }),
    ]);
    const project = await dana.post(`/api/v1/workspaces/${id}/projects`, {
      contentType: 'text/markdown',
      content: '# Campaign\n- Brief',
    });
    expect(project.status).toBe(200);
    // Nobody else sees it.
    expect((await client(server, server.token).get(`/api/v1/workspaces/${id}/folders`)).status).toBe(404);
  });

  test('names: trimmed, 1..100 characters on one line, not blank, unique among the caller’s own workspaces (409)', async () => {
    const erin = client(server, addUser(server, 'wm-erin'));
    const bad: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'a\nb' },
      { name: 'x'.repeat(101) },
      { name: { text: 'Marketing' } },
      { name: 'Ok', extra: true },
    ];
    for (const body of bad) {
      const res = await erin.post('/api/v1/workspaces', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await erin.post('/api/v1/workspaces', { name: '   ' })).body.error.details).toEqual({ field: 'name', reason: 'blank' });
    expect((await erin.post('/api/v1/workspaces', { name: 'a\nb' })).body.error.details).toMatchObject({ field: 'name' });
    expect((await erin.post('/api/v1/workspaces', { name: 'x'.repeat(100) })).status).toBe(200);

    expect((await erin.post('/api/v1/workspaces', { name: 'Research' })).status).toBe(200);
    const again = await erin.post('/api/v1/workspaces', { name: 'research ' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      error: { details: { field: 'name', reason: 'taken' } },
    });
    // Another person may use the same name: names are unique per person, not per server.
    expect((await client(server, addUser(server, 'wm-fay')).post('/api/v1/workspaces', { name: 'Research' })).status).toBe(200);
    expect((await erin.get('/api/v1/workspaces')).body.items.filter((w: { name: string }) => w.name === 'Research')).toHaveLength(1);
  });

  test('Owners rename a workspace; other roles get 403, outsiders and unknown ids 404, a name the Owner already has 409', async () => {
    const owner = client(server, server.token);
    const made = (await owner.post('/api/v1/workspaces', { name: 'Sales' })).body.item;
    const renamed = await owner.patch(`/api/v1/workspaces/${made.id}`, {
      name: ' Sales EMEA ',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      ok: true,
      item: { id: made.id, name: 'Sales EMEA', role: 'Owner' },
    });
    expect((await owner.get('/api/v1/workspaces')).body.items).toContainEqual({
      id: made.id,
      name: 'Sales EMEA',
      role: 'Owner',
    });
    // The same name again (any case of it) is no change.
    expect(
      (
        await owner.patch(`/api/v1/workspaces/${made.id}`, {
          name: 'sales emea',
        })
      ).body.item.name,
    ).toBe('sales emea');
    const clash = await owner.patch(`/api/v1/workspaces/${made.id}`, {
      name: 'My Workspace',
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.details).toEqual({
      field: 'name',
      reason: 'taken',
    });

    for (const role of ['Collaborator', 'Participant', 'Viewer']) {
      const member = client(
        server,
        addUser(server, `wm-${role.toLowerCase()}`, {
          workspaceId: made.id,
          role,
        }),
      );
      const res = await member.patch(`/api/v1/workspaces/${made.id}`, {
        name: 'Mine now',
      });
      expect({ role, status: res.status, code: res.body.code }).toEqual({
        role,
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(res.body.message).toMatch(/renaming a workspace needs the Owner role/);
    }
    const outsider = client(server, addUser(server, 'wm-outsider'));
    expect(
      (
        await outsider.patch(`/api/v1/workspaces/${made.id}`, {
          name: 'Mine now',
        })
      ).status,
    ).toBe(404);
    expect((await owner.patch('/api/v1/workspaces/no-such-workspace', { name: 'X' })).status).toBe(404);
    expect((await owner.patch(`/api/v1/workspaces/${made.id}`, {})).status).toBe(400);
    expect((await owner.patch(`/api/v1/workspaces/${made.id}`, { name: '\t ' })).body.error.details).toEqual({
      field: 'name',
      reason: 'blank',
    });
    expect((await owner.get('/api/v1/workspaces')).body.items).toContainEqual({
      id: made.id,
      name: 'sales emea',
      role: 'Owner',
    });
  });

  test('the caller changes their display name; every read shows it at once, also through a cached token', async () => {
    const token = addUser(server, 'wm-gus', {
      workspaceId: server.workspaceId,
      role: 'Participant',
    });
    const gus = client(server, token);
    expect((await gus.get('/api/v1/me')).body.item.displayName).toBe('wm-gus');
    const changed = await gus.patch('/api/v1/me', {
      displayName: '  Gus Grant ',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.item).toMatchObject({
      handle: 'wm-gus',
      displayName: 'Gus Grant',
    });
    expect((await gus.get('/api/v1/me')).body.item.displayName).toBe('Gus Grant');
    const members = (await gus.get(`/api/v1/workspaces/${server.workspaceId}/members`)).body.items;
    expect(members).toContainEqual(expect.objectContaining({ handle: 'wm-gus', displayName: 'Gus Grant' }));

    for (const body of [
      {},
      { displayName: '' },
      { displayName: ' ' },
      { displayName: 'a\rb' },
      { displayName: 'y'.repeat(101) },
      { displayName: 'Gus', handle: 'gus2' },
    ]) {
      const res = await gus.patch('/api/v1/me', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await gus.get('/api/v1/me')).body.item.displayName).toBe('Gus Grant');
  });

  test('scopes: creating, renaming and the display name need `write`; an OAuth app with `write` may, a `read` credential may not', async () => {
    const owner = client(server, server.token);
    const readToken = (await owner.post('/api/v1/tokens', { name: 'read only', scope: 'read' })).body.item.token as string;
    const reader = client(server, readToken);
    for (const res of [
      await reader.post('/api/v1/workspaces', { name: 'Read-only attempt' }),
      await reader.patch(`/api/v1/workspaces/${server.workspaceId}`, {
        name: 'Read-only attempt',
      }),
      await reader.patch('/api/v1/me', { displayName: 'Read-only attempt' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        error: { details: { scope: 'write' } },
      });
    }

    const cookie = await signInCookie(server);
    const readApp = client(server, (await issueTokens(server, cookie, 'read')).access_token);
    expect((await readApp.post('/api/v1/workspaces', { name: 'From a read app' })).body.code).toBe('INSUFFICIENT_SCOPE');
    const writeApp = client(server, (await issueTokens(server, cookie, 'read write')).access_token);
    const made = await writeApp.post('/api/v1/workspaces', {
      name: 'Made by an app',
    });
    expect(made.status).toBe(200);
    expect(made.body.item.role).toBe('Owner');
    expect(
      (
        await writeApp.patch(`/api/v1/workspaces/${made.body.item.id}`, {
          name: 'Renamed by an app',
        })
      ).status,
    ).toBe(200);
    // It belongs to the person who approved the app.
    expect((await owner.get('/api/v1/workspaces')).body.items).toContainEqual({
      id: made.body.item.id,
      name: 'Renamed by an app',
      role: 'Owner',
    });
    expect((await reader.get('/api/v1/workspaces')).status).toBe(200);
  });
});
