import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { DataDirLockedError } from '../../server/src/platform/db/data-dir-lock';
import { call, runCli, spawnServer, startServer, tempDataDir, OWNER_TOKEN, type ChildServer } from '../helpers/server';
import { describeSqliteOnly } from '../helpers/test-store';

/**
 * One server per data directory (docs "Operations"): a second one is refused, the CLI is not, a kill -9 leaves no stale lock.
 * SQLite only: on PostgreSQL no lock is taken (any number of servers share the database).
 */
describeSqliteOnly('the data directory lock', () => {
  let first: ChildServer | undefined;
  afterEach(async () => {
    await first?.stop('SIGKILL');
    first = undefined;
  });

  /** Starts `server/dist/main.js` on `dataDir` and resolves when it exits. */
  function runSecond(dataDir: string): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../server/dist/main.js')], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        TASKSPACE_DATA_DIR: dataDir,
        TASKSPACE_LOG_LEVEL: 'warn',
        TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  }

  test('a second server process on the same directory exits 1 naming the directory and the holder; the first keeps serving', async () => {
    const dataDir = tempDataDir();
    first = await spawnServer(dataDir);
    const second = await runSecond(dataDir);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`the data directory ${dataDir} is in use by another Taskspace server`);
    expect(second.stderr).toContain(`process ${first.child.pid} on `);
    expect((await call(first.url, 'GET', '/api/v1/me', { token: OWNER_TOKEN })).status).toBe(200);
  });

  test('the admin CLI works beside a running server', async () => {
    const dataDir = tempDataDir();
    first = await spawnServer(dataDir);
    const created = runCli(dataDir, 'user', 'create', 'cli-user');
    expect(created.code).toBe(0);
    const token = runCli(dataDir, 'token', 'create', '@cli-user');
    expect(token.code).toBe(0);
  });

  test('after kill -9 the next server starts at once on the same directory (no stale lock)', async () => {
    const dataDir = tempDataDir();
    first = await spawnServer(dataDir);
    await first.stop('SIGKILL');
    first = await spawnServer(dataDir);
    expect((await call(first.url, 'GET', '/api/v1/me', { token: OWNER_TOKEN })).status).toBe(200);
  });

  test('in one process too: a second app on a held directory is refused; closing the first releases it', async () => {
    const server = await startServer();
    const config = loadConfig({ TASKSPACE_DATA_DIR: server.dataDir, TASKSPACE_LOG_LEVEL: 'silent' });
    await expect(buildApp({ config })).rejects.toBeInstanceOf(DataDirLockedError);
    await server.close();
    const again = await startServer({ dataDir: server.dataDir });
    expect((await call(again.url, 'GET', '/api/v1/me', { token: OWNER_TOKEN })).status).toBe(200);
    await again.close();
  });
});
