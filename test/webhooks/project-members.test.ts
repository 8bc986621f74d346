import { addUser, client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { startReceiver, waitFor, type Receiver } from './receiver';
import { dbOf } from '../helpers/db';

/** `PUT /api/v1/projects/{projectId}/members`: project.assigned / project.joined, roles, delivery. */

describe('project membership', () => {
  let server: TestServer;
  let receiver: Receiver;
  let participant: string;
  let collaborator: string;
  let viewer: string;
  let outsider: string;

  const events = async (type: string) =>
    (await dbOf(server).all<{ payload_json: string }>('SELECT payload_json FROM events WHERE type = ? ORDER BY seq', type)).map((r) =>
      JSON.parse(r.payload_json),
    );

  async function newProject(name: string): Promise<string> {
    const res = await client(server, OWNER_TOKEN).post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/markdown',
      content: `# ${name}`,
    });
    return res.body.item.id;
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_WEBHOOKS_POLL_MS: '50' } });
    participant = addUser(server, 'pia', { workspaceId: server.workspaceId, role: 'Participant' });
    collaborator = addUser(server, 'cole', { workspaceId: server.workspaceId, role: 'Collaborator' });
    viewer = addUser(server, 'vic', { workspaceId: server.workspaceId, role: 'Viewer' });
    outsider = addUser(server, 'otto');
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('adding others raises project.assigned once per new member; re-adding raises nothing', async () => {
    const projectId = await newProject('Launch');
    const res = await client(server, collaborator).put(`/api/v1/projects/${projectId}/members`, { handles: ['pia', 'vic'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      items: [
        { handle: 'pia', displayName: 'pia' },
        { handle: 'vic', displayName: 'vic' },
      ],
    });
    const again = await client(server, OWNER_TOKEN).put(`/api/v1/projects/${projectId}/members`, { handles: ['PIA', 'owner'] });
    expect(again.body.items.map((m: { handle: string }) => m.handle)).toEqual(['owner', 'pia', 'vic']);

    const assigned = (await events('project.assigned')).filter((p) => p.projectId === projectId);
    expect(assigned).toEqual([
      {
        projectId,
        projectTitle: 'Launch',
        projectLink: `${server.url}/projects/${projectId}`,
        folderId: server.workspaceId,
        handle: 'pia',
        displayName: 'pia',
        assignedBy: 'cole',
      },
      {
        projectId,
        projectTitle: 'Launch',
        projectLink: `${server.url}/projects/${projectId}`,
        folderId: server.workspaceId,
        handle: 'vic',
        displayName: 'vic',
        assignedBy: 'cole',
      },
    ]);
    expect((await events('project.joined')).filter((p) => p.projectId === projectId)).toEqual([
      {
        projectId,
        projectTitle: 'Launch',
        projectLink: `${server.url}/projects/${projectId}`,
        folderId: server.workspaceId,
        handle: 'owner',
        displayName: 'Owner',
      },
    ]);
  });

  test('roles: a Participant may join but not add others; a Viewer may do neither; outsiders get 404', async () => {
    const projectId = await newProject('Roles');
    const path = `/api/v1/projects/${projectId}/members`;
    expect((await client(server, participant).put(path, { handles: ['pia'] })).status).toBe(200);
    expect((await events('project.joined')).filter((p) => p.projectId === projectId).map((p) => p.handle)).toEqual(['pia']);
    const others = await client(server, participant).put(path, { handles: ['cole'] });
    expect(others.status).toBe(403);
    expect(others.body.error.code).toBe('FORBIDDEN');
    expect((await client(server, viewer).put(path, { handles: ['vic'] })).status).toBe(403);
    expect((await client(server, outsider).put(path, { handles: ['otto'] })).status).toBe(404);
  });

  test('validation: unknown or non-member handles, duplicates, empty lists; completed projects refuse', async () => {
    const projectId = await newProject('Validation');
    const path = `/api/v1/projects/${projectId}/members`;
    const api = client(server, OWNER_TOKEN);
    for (const [handles, reason] of [
      [['otto'], 'not_a_member'],
      [['nobody-at-all'], 'not_a_member'],
      [['pia', 'Pia'], 'duplicate'],
      [[], 'too_few'],
    ] as const) {
      const res = await api.put(path, { handles });
      expect([handles, res.status, res.body.error?.details?.field, res.body.error?.details?.reason]).toEqual([
        handles,
        400,
        'handles',
        reason,
      ]);
    }
    expect((await api.put(path, {})).status).toBe(400);
    expect((await api.put(`/api/v1/projects/nope/members`, { handles: ['pia'] })).status).toBe(404);
    // Nothing half-written: the failed requests added no one.
    expect((await api.put(path, { handles: ['cole'] })).body.items.map((m: { handle: string }) => m.handle)).toEqual(['cole']);
    expect((await api.post(`/api/v1/projects/${projectId}/complete`)).status).toBe(200);
    const done = await api.put(path, { handles: ['pia'] });
    expect(done.status).toBe(409);
    expect(done.body.error.code).toBe('PROJECT_COMPLETED');
  });

  test('removing: yourself with Participant, others with Collaborator; unknown members 404', async () => {
    const projectId = await newProject('Leaving');
    const path = `/api/v1/projects/${projectId}/members`;
    await client(server, OWNER_TOKEN).put(path, { handles: ['pia', 'cole'] });
    expect((await client(server, participant).delete(`${path}/cole`)).status).toBe(403);
    expect((await client(server, participant).delete(`${path}/pia`)).status).toBe(200);
    expect((await client(server, collaborator).delete(`${path}/pia`)).status).toBe(404);
    expect((await client(server, collaborator).delete(`${path}/cole`)).body).toEqual({ ok: true });
  });

  test('project.assigned and project.joined are delivered to registered webhooks', async () => {
    const secret = (
      await client(server, OWNER_TOKEN).post('/api/v2/webhooks', {
        targetUrl: `${receiver.url}/members`,
        events: ['project.assigned', 'project.joined'],
      })
    ).body.secret;
    expect(secret).toBeDefined();
    const projectId = await newProject('Delivered');
    await client(server, OWNER_TOKEN).put(`/api/v1/projects/${projectId}/members`, { handles: ['cole'] });
    await client(server, participant).put(`/api/v1/projects/${projectId}/members`, { handles: ['pia'] });
    const got = await waitFor(() => receiver.received.length >= 2 && receiver.received, 'two deliveries');
    expect(got.map((r) => [r.headers['x-service-event'], r.json.type, r.json.payload.handle]).sort()).toEqual([
      ['project.assigned', 'project.assigned', 'cole'],
      ['project.joined', 'project.joined', 'pia'],
    ]);
  });
});
