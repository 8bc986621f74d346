import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { call, OWNER_TOKEN, spawnServer, tempDataDir, type ChildServer, type Reply } from '../helpers/server';

/**
 * The token cache on PostgreSQL (auth/tokens.ts `ActorCache`; docs "Operations", "PostgreSQL"):
 * each process remembers which account a token belongs to, and every change of a credential or
 * an account, made through any process or the admin CLI, reaches the others with the `auth`
 * notification of its transaction. Two server processes on one database: what is revoked through
 * one is refused by that one on its very next request, and by the other (which had served and
 * cached the same credential) as soon as PostgreSQL delivers the notification, just after the
 * commit and asynchronously, so the test waits for that (bounded by {@link DELIVERY_MS}).
 * Membership is never cached: a removed member is refused everywhere on the next request.
 */

const BIN = path.resolve(__dirname, '../../server/bin/taskspace.js');

/** How long a notification may take to reach the other process before the test fails, in ms (usually under 1). */
const DELIVERY_MS = 2000;

describe('token cache across processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let a: ChildServer;
  let b: ChildServer;
  let workspaceId: string;
  let projectId: string;

  /** Runs the admin CLI on the test database; returns its standard output. */
  const cli = (...args: string[]): string => {
    const { TASKSPACE_DATA_DIR: _unused, ...inherited } = process.env;
    const res = spawnSync(process.execPath, [BIN, ...args], {
      cwd: tempDataDir(),
      env: { ...inherited, DATABASE_URL: database.url },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`taskspace ${args.join(' ')}: ${res.stderr}`);
    return res.stdout;
  };
  /** A new account, member of the workspace with `role`, and a token of theirs. */
  const member = (handle: string, role: string): string => {
    cli('user', 'create', handle);
    cli('member', 'add', workspaceId, handle, role);
    const match = /token \(shown once\): (\S+)/.exec(cli('token', 'create', handle));
    if (!match) throw new Error('no token printed');
    return match[1]!;
  };
  /** Reads the project through `server` with `token` a few times (the later ones from the cache). */
  const readProject = async (server: ChildServer, token: string) => {
    let res = await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token });
    for (let i = 0; i < 3 && res.status === 200; i++) res = await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token });
    return res;
  };

  /**
   * Reads the project through `server` with `token` until `done` holds for the answer (the
   * notification has arrived), at most {@link DELIVERY_MS}; returns the last answer.
   */
  const readUntil = async (server: ChildServer, token: string, done: (res: Reply) => boolean) => {
    const deadline = Date.now() + DELIVERY_MS;
    let res = await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token });
    while (!done(res) && Date.now() < deadline) res = await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token });
    return res;
  };
  const refused = (res: { status: number }) => res.status === 401;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await spawnServer(tempDataDir(), { DATABASE_URL: database.url });
    b = await spawnServer(tempDataDir(), { DATABASE_URL: database.url, TASKSPACE_ROLE: 'api' });
    workspaceId = (await call(a.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).body.items[0].id;
    projectId = (
      await call(a.url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, {
        token: OWNER_TOKEN,
        body: { contentType: 'text/markdown', content: '# Shared\n\n- one' },
      })
    ).body.item.id;
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await database?.drop();
  });

  test('a personal access token revoked through one process is refused there at once and by the other when the notification arrives', async () => {
    const created = await call(a.url, 'POST', '/api/v1/tokens', { token: OWNER_TOKEN, body: { name: 'cached elsewhere' } });
    expect(created.status).toBe(200);
    const { id, token } = created.body.item as { id: string; token: string };
    expect((await readProject(a, token)).status).toBe(200);
    expect((await readProject(b, token)).status).toBe(200);
    expect((await call(a.url, 'DELETE', `/api/v1/tokens/${id}`, { token: OWNER_TOKEN })).status).toBe(200);
    // The process that revoked it refuses it on the very next request.
    expect((await call(a.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token })).status).toBe(401);
    const elsewhere = await readUntil(b, token, refused);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error.details.reason).toBe('invalid_token');
  });

  test('a token revoked with the admin CLI is refused by both processes once the notification arrives', async () => {
    const token = member('cli_revoked', 'Viewer');
    expect((await readProject(a, token)).status).toBe(200);
    expect((await readProject(b, token)).status).toBe(200);
    const listed = cli('token', 'list', 'cli_revoked');
    const tokenId = listed.trim().split('\t')[0]!;
    cli('token', 'revoke', tokenId);
    expect((await readUntil(a, token, refused)).status).toBe(401);
    expect((await readUntil(b, token, refused)).status).toBe(401);
  });

  test('a member removed through one process loses access through the other on the next request', async () => {
    const token = member('removed_member', 'Participant');
    expect((await readProject(b, token)).status).toBe(200);
    expect((await call(a.url, 'DELETE', `/api/v1/workspaces/${workspaceId}/members/removed_member`, { token: OWNER_TOKEN })).status).toBe(
      200,
    );
    expect((await call(b.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token })).status).toBe(404);
    expect(
      (
        await call(b.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
          token,
          body: { tasks: [{ contentType: 'text/plain', content: 'x' }] },
        })
      ).status,
    ).toBe(404);
  });

  test("an account's rate tier changed with the admin CLI applies in every process once the notification arrives", async () => {
    const token = member('tier_changed', 'Viewer');
    const before = await readProject(b, token);
    expect(before.headers['x-ratelimit-limit']).toBe('1000');
    cli('user', 'update', 'tier_changed', '--tier', 'premium');
    const after = await readUntil(b, token, (res) => res.headers['x-ratelimit-limit'] !== '1000');
    expect(after.status).toBe(200);
    expect(after.headers['x-ratelimit-limit']).toBe('5000');
  });
});
