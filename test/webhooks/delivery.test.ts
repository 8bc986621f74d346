import { verifySignature } from '../../server/src/index';
import { addUser, client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { makeCertificate, signatureMatches, startReceiver, waitFor, type Receiver } from './receiver';

/**
 * Outbound delivery over real sockets: an https receiver with a self-signed certificate trusted
 * through TASKSPACE_WEBHOOKS_CA_FILE (https enforced, 127.0.0.1 allowed explicitly), and a plain
 * http receiver under the development switch.
 */

const enc = encodeURIComponent;
const FAST_RETRIES = {
  TASKSPACE_WEBHOOKS_POLL_MS: '50',
  TASKSPACE_WEBHOOKS_RETRY_BASE_MS: '40',
  TASKSPACE_WEBHOOKS_RETRY_MAX_MS: '200',
  TASKSPACE_WEBHOOKS_MAX_ATTEMPTS: '4',
};

async function newProject(server: TestServer, name: string, workspaceId = server.workspaceId): Promise<string> {
  const res = await client(server, OWNER_TOKEN).post(`/api/v1/workspaces/${workspaceId}/projects`, {
    contentType: 'text/markdown',
    content: `# ${name}`,
  });
  if (res.status !== 200) throw new Error(`project create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.item.id;
}

async function register(
  server: TestServer,
  targetUrl: string,
  events: string[],
  extra: { spaceIds?: string[]; token?: string } = {},
): Promise<string> {
  const res = await client(server, extra.token ?? OWNER_TOKEN).post('/api/v2/webhooks', { targetUrl, events, spaceIds: extra.spaceIds });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.secret;
}

function on(receiver: Receiver, path: string) {
  return receiver.received.filter((r) => r.url === path);
}

async function log(server: TestServer, url: string, token = OWNER_TOKEN): Promise<any[]> {
  const res = await client(server, token).get(`/api/v2/webhooks/${enc(url)}/deliveries`);
  if (res.status !== 200) throw new Error(`log failed: ${res.status}`);
  return res.body.items;
}

describe('signed delivery to an https receiver', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    const cert = makeCertificate();
    receiver = await startReceiver({
      tls: cert,
      respond: (req) => {
        const seen = receiver.received.filter((r) => r.url === req.url).length;
        if (req.url === '/flaky') return { status: seen <= 2 ? 500 : 200 };
        if (req.url === '/gone') return { status: 410 };
        if (req.url === '/down') return { status: 503 };
        if (req.url === '/redirect') return { status: 302, headers: { location: `${receiver.url}/elsewhere` } };
        return { status: 200 };
      },
    });
    server = await startServer({
      env: { ...FAST_RETRIES, TASKSPACE_WEBHOOKS_CA_FILE: cert.certFile, TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('a project.created delivery is signed over the exact bytes, with event and delivery headers', async () => {
    const url = `${receiver.url}/signed`;
    const secret = await register(server, url, ['project.created']);
    const projectId = await newProject(server, 'Signed');
    const [got] = await waitFor(() => on(receiver, '/signed').length > 0 && on(receiver, '/signed'), 'the signed delivery');

    expect(got!.method).toBe('POST');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-service-event']).toBe('project.created');
    expect(got!.headers['x-service-delivery']).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(signatureMatches(got!.raw, got!.headers['x-service-signature'], secret)).toBe(true);
    expect(signatureMatches(got!.raw, got!.headers['x-service-signature'], secret + 'x')).toBe(false);
    expect(verifySignature(got!.raw, got!.headers['x-service-signature'], secret)).toBe(true);
    expect(verifySignature(got!.raw, got!.headers['x-service-signature'], 'whsec_other')).toBe(false);
    expect(verifySignature(Buffer.concat([got!.raw, Buffer.from(' ')]), got!.headers['x-service-signature'], secret)).toBe(false);

    expect(got!.json).toEqual({
      id: expect.any(String),
      type: 'project.created',
      workspaceId: server.workspaceId,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      payload: {
        projectId,
        projectTitle: 'Signed',
        projectLink: `${server.url}/projects/${projectId}`,
        folderId: server.workspaceId,
        createdBy: 'owner',
      },
    });

    const [entry] = await waitFor(async () => {
      const items = await log(server, url);
      return items[0]?.status === 'succeeded' && items;
    }, 'the log entry');
    expect(entry).toMatchObject({
      id: got!.headers['x-service-delivery'],
      eventId: got!.json.id,
      event: 'project.created',
      status: 'succeeded',
      attemptCount: 1,
      nextRetryAt: null,
      lastStatusCode: 200,
      attempts: [{ number: 1, statusCode: 200, error: null }],
    });
  });

  test('task.assigned and comment.created carry their payloads', async () => {
    const url = `${receiver.url}/tasks`;
    await register(server, url, ['task.assigned', 'comment.created']);
    addUser(server, 'pat', { workspaceId: server.workspaceId, role: 'Participant' });
    const api = client(server, OWNER_TOKEN);
    const projectId = await newProject(server, 'Assigned');
    const created = await api.post(`/api/v1/projects/${projectId}/tasks/`, {
      tasks: [{ contentType: 'text/markdown', content: 'Write docs' }],
    });
    const taskId = created.body.item[0].id;
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${taskId}/assignees`, { handles: ['pat'] })).status).toBe(200);
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${taskId}/comments`, { text: 'Looks good' })).status).toBe(200);

    const got = await waitFor(() => on(receiver, '/tasks').length >= 2 && on(receiver, '/tasks'), 'two deliveries');
    const byType = Object.fromEntries(got.map((r) => [r.json.type, r.json.payload]));
    const base = {
      projectId,
      projectTitle: 'Assigned',
      projectLink: `${server.url}/projects/${projectId}`,
      nodeId: taskId,
      nodeText: 'Write docs',
    };
    expect(byType['task.assigned']).toMatchObject({ ...base, added: [{ handle: 'pat' }], assignedBy: 'owner' });
    expect(byType['task.assigned'].assignees).toEqual([expect.objectContaining({ handle: 'pat' })]);
    expect(byType['comment.created']).toMatchObject({ ...base, commentId: expect.any(String), commentText: 'Looks good', author: 'owner' });
  });

  test('spaceIds limits deliveries to the listed workspaces; empty means all of them', async () => {
    const out = runCli(server.dataDir, 'workspace', 'create', 'Second', '--owner', 'owner');
    const second = /created workspace (\S+)/.exec(out.out)![1]!;
    await register(server, `${receiver.url}/scoped`, ['project.created'], { spaceIds: [second] });
    await register(server, `${receiver.url}/everywhere`, ['project.created']);
    const first = await newProject(server, 'In the first');
    const other = await newProject(server, 'In the second', second);
    await waitFor(() => on(receiver, '/everywhere').length === 2 && on(receiver, '/scoped').length === 1, 'both deliveries');
    expect(
      on(receiver, '/everywhere')
        .map((r) => r.json.payload.projectId)
        .sort(),
    ).toEqual([first, other].sort());
    expect(on(receiver, '/scoped').map((r) => [r.json.workspaceId, r.json.payload.projectId])).toEqual([[second, other]]);
  });

  test('a receiver failing twice then succeeding gets one success; the log shows three attempts', async () => {
    const url = `${receiver.url}/flaky`;
    await register(server, url, ['project.created']);
    await newProject(server, 'Flaky');
    const [entry] = await waitFor(async () => {
      const items = await log(server, url);
      return items[0]?.status === 'succeeded' && items;
    }, 'the third attempt');
    expect(entry.attemptCount).toBe(3);
    expect(entry.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    expect(entry.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3]);
    const got = on(receiver, '/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([entry.id]));
    expect(got.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(got.map((r) => r.raw.toString('hex'))).size).toBe(1);
  });

  test('a 4xx ends a delivery as failed at once; a 5xx is retried up to the attempt limit', async () => {
    await register(server, `${receiver.url}/gone`, ['project.created']);
    await register(server, `${receiver.url}/down`, ['project.created']);
    await newProject(server, 'Failing');
    const [gone] = await waitFor(async () => {
      const items = await log(server, `${receiver.url}/gone`);
      return items[0]?.status === 'failed' && items;
    }, 'the 410 to fail');
    expect(gone).toMatchObject({ attemptCount: 1, lastStatusCode: 410, nextRetryAt: null, completedAt: expect.any(String) });
    const [down] = await waitFor(async () => {
      const items = await log(server, `${receiver.url}/down`);
      return items[0]?.status === 'failed' && items;
    }, 'the 503s to give up');
    expect(down.attemptCount).toBe(4);
    expect(down.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 503, 503, 503]);
    expect(on(receiver, '/gone')).toHaveLength(1);
    expect(on(receiver, '/down')).toHaveLength(4);
  });

  test('redirects are not followed', async () => {
    const url = `${receiver.url}/redirect`;
    await register(server, url, ['project.created']);
    await newProject(server, 'Redirected');
    const [entry] = await waitFor(async () => {
      const items = await log(server, url);
      return items[0]?.status === 'failed' && items;
    }, 'the redirect to fail');
    expect(entry).toMatchObject({ attemptCount: 1, lastStatusCode: 302 });
    expect(on(receiver, '/elsewhere')).toHaveLength(0);
  });

  test('a downgraded account gets no deliveries until it is on Pro again; only later events follow', async () => {
    const token = addUser(server, 'dormant', { plan: 'pro', verified: true, workspaceId: server.workspaceId, role: 'Viewer' });
    await register(server, `${receiver.url}/dormant`, ['project.created'], { token });
    await register(server, `${receiver.url}/witness`, ['project.created']);
    runCli(server.dataDir, 'user', 'update', 'dormant', '--plan', 'free');
    const skipped = await newProject(server, 'While free');
    await waitFor(() => on(receiver, '/witness').some((r) => r.json.payload.projectId === skipped), 'the witness delivery');
    runCli(server.dataDir, 'user', 'update', 'dormant', '--plan', 'pro');
    const later = await newProject(server, 'After upgrade');
    await waitFor(() => on(receiver, '/witness').some((r) => r.json.payload.projectId === later), 'the second witness delivery');
    await waitFor(() => on(receiver, '/dormant').length > 0, 'the dormant delivery');
    expect(on(receiver, '/dormant').map((r) => r.json.payload.projectId)).toEqual([later]);
  });
});

describe('delivery under the development switch (http, loopback)', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer({ env: { ...FAST_RETRIES, TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1' } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('signed registrations are signed over http too; legacy subscriptions are unsigned', async () => {
    const secret = await register(server, `${receiver.url}/signed`, ['project.created']);
    const sub = await client(server, OWNER_TOKEN).post('/api/v2/subscribeWebhook', {
      targetUrl: `${receiver.url}/legacy`,
      triggerType: 'project.created',
    });
    expect(sub.status).toBe(200);
    const projectId = await newProject(server, 'Plain');
    await waitFor(() => on(receiver, '/signed').length === 1 && on(receiver, '/legacy').length === 1, 'both deliveries');
    const [signed] = on(receiver, '/signed');
    const [legacy] = on(receiver, '/legacy');
    expect(signatureMatches(signed!.raw, signed!.headers['x-service-signature'], secret)).toBe(true);
    expect(legacy!.headers['x-service-signature']).toBeUndefined();
    expect(legacy!.headers['x-service-event']).toBe('project.created');
    expect(legacy!.headers['x-service-delivery']).not.toBe(signed!.headers['x-service-delivery']);
    expect(legacy!.json).toEqual(signed!.json);
    expect(legacy!.json.payload.projectId).toBe(projectId);

    // After unsubscribing, the legacy URL gets nothing more.
    await client(server, OWNER_TOKEN).post('/api/v2/unsubscribeWebhook', { hookId: sub.body.hookId });
    const next = await newProject(server, 'After unsubscribe');
    await waitFor(() => on(receiver, '/signed').some((r) => r.json.payload.projectId === next), 'the signed delivery');
    expect(on(receiver, '/legacy')).toHaveLength(1);
  });
});

describe('certificates are always verified', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver({ tls: makeCertificate() });
    // 127.0.0.1 allowed, but the receiver's self-signed certificate is not trusted (no CA file).
    server = await startServer({
      env: { ...FAST_RETRIES, TASKSPACE_WEBHOOKS_MAX_ATTEMPTS: '1', TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('an untrusted certificate fails the attempt before any request is sent', async () => {
    const url = `${receiver.url}/untrusted`;
    await register(server, url, ['project.created']);
    await newProject(server, 'Untrusted');
    const [entry] = await waitFor(async () => {
      const items = await log(server, url);
      return items[0]?.status === 'failed' && items;
    }, 'the TLS failure');
    expect(entry.lastStatusCode).toBeNull();
    expect(entry.lastError).toMatch(/SELF_SIGNED|certificate/i);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('a slow receiver cannot hold every delivery slot', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver({ respond: (req) => (req.url === '/stuck' ? 'hang' : { status: 200 }) });
    server = await startServer({
      env: {
        ...FAST_RETRIES,
        TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
        TASKSPACE_WEBHOOKS_CONCURRENCY: '3',
        TASKSPACE_WEBHOOKS_CONCURRENCY_PER_TARGET: '2',
        TASKSPACE_WEBHOOKS_TIMEOUT_MS: '60000',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('with a hanging target at its per-target limit, another target still gets every event', async () => {
    await register(server, `${receiver.url}/stuck`, ['project.created']);
    await register(server, `${receiver.url}/healthy`, ['project.created']);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newProject(server, `Busy ${i}`));
    await waitFor(() => on(receiver, '/healthy').length === 5, 'all healthy deliveries');
    expect(
      on(receiver, '/healthy')
        .map((r) => r.json.payload.projectId)
        .sort(),
    ).toEqual([...ids].sort());
    // Both slots of the hanging target are taken (their requests reached it), and no more.
    await waitFor(() => on(receiver, '/stuck').length >= 2, 'the two hanging attempts');
    // Witness: one more event. Its healthy delivery needs the last free slot, which the queued
    // (older) deliveries to the hanging target would take first if its limit did not hold.
    ids.push(await newProject(server, 'Witness'));
    await waitFor(() => on(receiver, '/healthy').length === 6, 'the witness delivery');
    expect(
      on(receiver, '/healthy')
        .map((r) => r.json.payload.projectId)
        .sort(),
    ).toEqual([...ids].sort());
    expect(on(receiver, '/stuck')).toHaveLength(2);
  });
});
