import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';
import Database from 'better-sqlite3';
import { DB_FILE } from '../../server/src/platform/db/connection';
import { listArchive } from '../../server/src/ops/archive';
import { SECRET_KEY_FILE } from '../../server/src/platform/secret-box';
import { AUTOMATION_ENV, createAutomation, settledRuns } from '../automations/helpers';
import { dbOf } from '../helpers/db';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { addUser, call, client, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { emptyStoreEnv, onPostgres, testSqliteOnly } from '../helpers/test-store';
import { mediaBytes, pathWithoutPostgresTools, runBin, uploadMedia } from './helpers';

/**
 * `taskspace backup` and `taskspace restore` (docs/operations.md "Backup and restore"), on the
 * run's store: a backup taken while tasks are being written, restored into a new data directory
 * (PostgreSQL: a new, empty database) and served again, with the same tasks, automations, runs,
 * media and accounts as the original at the backup's snapshot.
 */

const ENV = { ...AUTOMATION_ENV, TASKSPACE_MEDIA_STORE: 'files' };
const COUNTED = ['tasks', 'automations', 'automation_runs', 'media', 'users', 'access_tokens', 'webhooks', 'workspace_secrets'];

describe('backup while writes are under way, restore into a new store', () => {
  let original: TestServer;
  let bobToken: string;
  let automationId: string;
  let mediaId: string;
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
  let backupFile: string;
  let tasksBefore: Set<string>;
  const started: TestServer[] = [];

  beforeAll(async () => {
    original = await startServer({ env: ENV });
    const api = client(original, original.token);
    const projectId = await newProject(original, 'Backed up');
    await addTasks(original, projectId, ['first', 'second', 'third']);
    bobToken = addUser(original, 'bob', { workspaceId: original.workspaceId, role: 'Collaborator' });
    const automation = await createAutomation(api, original.workspaceId, {
      name: 'Make a task',
      trigger: { type: 'webhook' },
      actions: [{ type: 'task.create', projectId, text: 'made by the automation' }],
    });
    automationId = automation.id;
    const hook = new URL(automation.webhook.url);
    expect((await call(original.url, 'POST', hook.pathname + hook.search, { body: { n: 1 } })).status).toBeLessThan(300);
    await settledRuns(api, automationId, 1);
    mediaId = (await uploadMedia(original, 'pattern.bin', bytes)).id;
    expect(
      (await api.post('/api/v2/webhooks', { targetUrl: 'https://hooks.example.com/backup', events: ['comment.created'] })).status,
    ).toBe(200);
    expect((await api.put(`/api/v1/workspaces/${original.workspaceId}/secrets/API_KEY`, { value: 'sk_backup_value' })).status).toBe(200);

    // SQLite: a reader holding an old snapshot keeps the checkpoints from copying later commits into
    // the database file, so the tasks added now are in the WAL only: a copy of the file would miss them.
    const reader = onPostgres() ? undefined : new Database(path.join(original.dataDir, DB_FILE), { readonly: true });
    reader?.prepare('BEGIN').run();
    reader?.prepare('SELECT count(*) FROM tasks').get();
    await addTasks(original, projectId, ['only in the WAL', 'also only in the WAL']);
    tasksBefore = new Set((await dbOf(original).all<{ id: string }>('SELECT id FROM tasks')).map((r) => r.id));
    backupFile = path.join(tempDataDir(), 'taskspace.tar.gz');
    // Tasks are created one request after the other until the backup has ended.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await addTasks(original, projectId, [`during backup ${written}`]);
        written++;
      }
    })();
    const result = await runBin(original.dataDir, ['backup', '--out', backupFile]);
    writing = false;
    await writer;
    reader?.prepare('COMMIT').run();
    reader?.close();
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toContain(`backup written to ${backupFile}`);
    expect(written).toBeGreaterThan(0);
  }, 120_000);

  afterAll(async () => {
    for (const server of started) await server.close();
    await original.close();
  });

  test('the backup is one file holding the database and the media files, never the secrets key', async () => {
    const entries = await listArchive(backupFile);
    expect(entries).toContain('taskspace-backup.json');
    expect(entries.some((e) => e.startsWith('database/'))).toBe(true);
    const storageKey = (await dbOf(original).value<string>('SELECT storage_key FROM media WHERE id = ?', mediaId))!;
    expect(entries).toContain(`media/${storageKey}`);
    expect(entries.filter((e) => e.includes(SECRET_KEY_FILE))).toEqual([]);
    const key = fs.readFileSync(path.join(original.dataDir, SECRET_KEY_FILE), 'utf8').trim();
    const raw = zlib.gunzipSync(fs.readFileSync(backupFile));
    expect(raw.includes(Buffer.from(key))).toBe(false);
  });

  /** Restores the backup into a new data directory with the original key, serves it, compares it with the original. */
  async function restoreAndCompare(file: string, extraEnv: Record<string, string> = {}): Promise<void> {
    const dataDir = tempDataDir();
    emptyStoreEnv(dataDir);
    fs.copyFileSync(path.join(original.dataDir, SECRET_KEY_FILE), path.join(dataDir, SECRET_KEY_FILE));
    const restored = await runBin(dataDir, ['restore', '--from', file, '--data-dir', dataDir], extraEnv);
    expect(restored).toMatchObject({ code: 0 });
    expect(restored.out).toContain('it opens all 2 stored secret(s)');
    expect(restored.out).toMatch(/: \d+ rows in \d+ tables, each table's count as in the backup/);

    const copy = await startServer({ dataDir, env: ENV });
    started.push(copy);
    const before = dbOf(original);
    const after = dbOf(copy);
    // Every task of the copy is the original's, and every task made before the backup began is there.
    const copyTasks = await after.all<{ id: string; text: string }>('SELECT id, text FROM tasks ORDER BY id');
    const originalTasks = new Map(
      (await before.all<{ id: string; text: string }>('SELECT id, text FROM tasks')).map((r) => [r.id, r.text]),
    );
    for (const task of copyTasks) expect(originalTasks.get(task.id)).toBe(task.text);
    for (const id of tasksBefore) expect(copyTasks.some((t) => t.id === id)).toBe(true);
    // The rest did not change while the backup ran: the same counts and the same rows through the API.
    for (const table of COUNTED.filter((t) => t !== 'tasks')) {
      expect([table, await after.value('SELECT count(*) FROM ' + table)]).toEqual([
        table,
        await before.value('SELECT count(*) FROM ' + table),
      ]);
    }
    const api = client(copy, copy.token);
    const originalApi = client(original, original.token);
    // The same automation; its inbound URL is on the copy's address.
    const served = async (server: TestServer, api: ReturnType<typeof client>) =>
      JSON.stringify((await api.get(`/api/v1/automations/${automationId}`)).body).replaceAll(server.url, 'BASE');
    expect(await served(copy, api)).toEqual(await served(original, originalApi));
    const runs = (await api.get(`/api/v1/automations/${automationId}/runs`)).body.items;
    expect(runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual(
      (await originalApi.get(`/api/v1/automations/${automationId}/runs`)).body.items.map((r: { id: string; status: string }) => [
        r.id,
        r.status,
      ]),
    );
    expect(await mediaBytes(copy, mediaId)).toEqual(bytes);
    // Accounts: the same people, and their tokens still sign in.
    expect(await after.all('SELECT handle FROM users ORDER BY handle')).toEqual(
      await before.all('SELECT handle FROM users ORDER BY handle'),
    );
    expect((await client(copy, bobToken).get('/api/v1/workspaces')).status).toBe(200);
    // The webhook's sealed secret opens with the restored key: its registration reads back.
    expect((await api.get('/api/v2/webhooks')).status).toBe(200);
  }

  test('restored into a new store it serves the same tasks, automations, runs, media and accounts', async () => {
    await restoreAndCompare(backupFile);
  }, 120_000);

  (onPostgres() ? test : test.skip)(
    'without pg_dump the backup is a table copy of the same snapshot, restored without pg_restore',
    async () => {
      const noTools = { PATH: pathWithoutPostgresTools() };
      const file = path.join(tempDataDir(), 'copy.tar.gz');
      const made = await runBin(original.dataDir, ['backup', '--out', file], noTools);
      expect(made).toMatchObject({ code: 0 });
      expect(made.err).toContain('a table copy (no pg_dump)');
      expect((await listArchive(file)).filter((e) => e.startsWith('database/tables/')).length).toBeGreaterThan(10);
      await restoreAndCompare(file, noTools);
    },
    120_000,
  );

  test('without the secrets key the restore says which secrets cannot be opened', async () => {
    const dataDir = tempDataDir();
    emptyStoreEnv(dataDir);
    const restored = await runBin(dataDir, ['restore', '--from', backupFile, '--data-dir', dataDir]);
    expect(restored.code).toBe(0);
    expect(restored.err).toContain('2 of 2 stored secret(s) cannot be opened');
    expect(restored.err).toMatch(/unreadable: webhooks\.secret_sealed \(id=\S+\)/);
    expect(restored.err).toContain(`unreadable: workspace_secrets.value_sealed (workspace_id=${original.workspaceId}, name=API_KEY)`);
    expect(fs.existsSync(path.join(dataDir, SECRET_KEY_FILE))).toBe(false);
  }, 60_000);

  test('a restore onto a store that holds data is refused and changes nothing', async () => {
    const tasks = await dbOf(original).value('SELECT count(*) FROM tasks');
    const refused = await runBin(original.dataDir, ['restore', '--from', backupFile, '--data-dir', original.dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is not empty/);
    expect(refused.err).toContain('a restore never overwrites data');
    expect(await dbOf(original).value('SELECT count(*) FROM tasks')).toBe(tasks);
    const again = await runBin(original.dataDir, ['backup', '--out', backupFile]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('exists already');
    const notABackup = path.join(tempDataDir(), 'notes.txt');
    fs.writeFileSync(notABackup, 'hello');
    const fresh = tempDataDir();
    emptyStoreEnv(fresh);
    const bad = await runBin(fresh, ['restore', '--from', notABackup, '--data-dir', fresh]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is not a Taskspace backup');
  }, 60_000);

  testSqliteOnly(
    'a backup whose database lost rows is refused at restore, naming the table',
    async () => {
      const unpacked = tempDataDir();
      await tar.x({ file: backupFile, cwd: unpacked });
      const db = new Database(path.join(unpacked, 'database', 'taskspace.sqlite'));
      db.prepare("DELETE FROM users WHERE handle = 'bob'").run();
      db.close();
      const damaged = path.join(tempDataDir(), 'damaged.tar.gz');
      await tar.c({ gzip: true, file: damaged, cwd: unpacked }, fs.readdirSync(unpacked));
      const dataDir = tempDataDir();
      const restored = await runBin(dataDir, ['restore', '--from', damaged, '--data-dir', dataDir]);
      expect(restored.code).toBe(1);
      expect(restored.err).toMatch(/the restored store does not match the backup: .*users \(1 rows, the backup had 2\)/);
      // Nothing was put in place: the directory can take the next restore.
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
    60_000,
  );
});
