import fs from 'node:fs';
import path from 'node:path';
import { migrationsFor } from '../../server/src/platform/db/migrate';
import { migrations } from '../../server/src/platform/db/migrations';
import { SECRET_KEY_FILE } from '../../server/src/platform/secret-box';
import { AUTOMATION_ENV, createAutomation, settledRuns } from '../automations/helpers';
import { dbOf } from '../helpers/db';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { addUser, call, client, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { mediaBytes, runBin, uploadMedia } from './helpers';
import { OLDEST_VERSION, oldStore } from './old-schema';

/**
 * Upgrades (docs/operations.md "Upgrades"): a store at the oldest schema this release upgrades
 * from (the baseline, version 20, made by the real migrations run only that far) holding a
 * workspace's rows — tasks with notes, assignees and comments, an automation with its versions and
 * a finished run with its steps, media, accounts with tokens, a webhook and a workspace secret — is
 * upgraded to the current schema by the server's start, and every row reads back through the API
 * as the server that wrote them serves it. The rows are those a server of this release wrote,
 * copied column by column into the old schema's tables (the columns those tables had then).
 */

const ENV = { ...AUTOMATION_ENV, TASKSPACE_MEDIA_STORE: 'files' };

describe('upgrade from the oldest supported schema', () => {
  let source: TestServer;
  let upgraded: TestServer;
  let projectId: string;
  let automationId: string;
  let mediaId: string;
  let bobToken: string;
  const bytes = Buffer.from('bytes written before the upgrade');
  let oldDir: string;
  let copied: Map<string, number>;

  beforeAll(async () => {
    source = await startServer({ env: ENV });
    const api = client(source, source.token);
    projectId = await newProject(source, 'Old project');
    const [parent] = await addTasks(source, projectId, ['parent', 'second']);
    await addTasks(source, projectId, [{ content: 'child', taskId: parent!.id, placement: 'beforeend' }]);
    bobToken = addUser(source, 'bob', { workspaceId: source.workspaceId, role: 'Collaborator', verified: true });
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${parent!.id}/note`, { type: 'text/plain', value: 'a note' })).status).toBe(
      200,
    );
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${parent!.id}/comments`, { text: 'a comment' })).status).toBe(200);
    const automation = await createAutomation(api, source.workspaceId, {
      name: 'Old automation',
      trigger: { type: 'webhook' },
      actions: [{ type: 'task.create', projectId, text: 'made by a run' }],
    });
    automationId = automation.id;
    const hook = new URL(automation.webhook.url);
    expect((await call(source.url, 'POST', hook.pathname, { body: { from: 'before' } })).status).toBeLessThan(300);
    await settledRuns(api, automationId, 1);
    mediaId = (await uploadMedia(source, 'old.txt', bytes)).id;
    expect((await api.post('/api/v2/webhooks', { targetUrl: 'https://hooks.example.com/old', events: ['comment.created'] })).status).toBe(
      200,
    );
    expect((await api.put(`/api/v1/workspaces/${source.workspaceId}/secrets/OLD_KEY`, { value: 'sk_old_value' })).status).toBe(200);

    // The old store: the schema at the oldest version, its rows copied from the source's tables.
    oldDir = tempDataDir();
    const old = await oldStore(oldDir);
    copied = new Map();
    const columns = await old.columns();
    // Projects go last: on SQLite the tasks' triggers (bumping their project's version) then find no project to change.
    const tables = [...columns.keys()].sort((a, b) => Number(a === 'projects') - Number(b === 'projects'));
    for (const table of tables) {
      const rows = await dbOf(source).all(`SELECT * FROM ${table}`);
      const names = columns.get(table)!;
      await old.insert(
        table,
        names,
        rows.map((row) => names.map((name) => row[name] ?? null)),
      );
      copied.set(table, rows.length);
    }
    await old.close();
    fs.copyFileSync(path.join(source.dataDir, SECRET_KEY_FILE), path.join(oldDir, SECRET_KEY_FILE));
    fs.cpSync(path.join(source.dataDir, 'media'), path.join(oldDir, 'media'), { recursive: true, filter: (f) => !f.endsWith('.tmp') });
  }, 120_000);

  afterAll(async () => {
    await upgraded?.close();
    await source.close();
  });

  test('the doctor sees the old schema and the migrations the next start applies', async () => {
    const report = await runBin(oldDir, ['doctor', '--data-dir', oldDir]);
    expect(report.out).toContain(`[ok] schema: version ${OLDEST_VERSION} `);
    const dialect = process.env.TASKSPACE_TEST_POSTGRES_ADMIN ? 'postgres' : 'sqlite';
    const pending = migrationsFor(migrations, dialect).filter((m) => m.version > OLDEST_VERSION);
    expect(pending.length).toBeGreaterThan(0);
    expect(report.out).toContain(
      `[warn] migrations: ${pending.length} pending, applied by the next server start: ${pending[0]!.version} ${pending[0]!.name}`,
    );
    expect(report.out).toContain('[ok] secrets: secrets key: ');
    expect(report.code).toBe(0);
  }, 60_000);

  test('the server upgrades it to the current schema and serves every row as before', async () => {
    upgraded = await startServer({ dataDir: oldDir, env: ENV });
    const latest = Math.max(...migrations.slice(1).map((m) => ('version' in m ? m.version : 0)));
    expect(await dbOf(upgraded).value('SELECT max(version) FROM schema_migrations')).toBe(latest);
    for (const [table, count] of copied)
      expect([table, await dbOf(upgraded).value(`SELECT count(*) FROM ${table}`)]).toEqual([table, count]);

    const taskIds = (await dbOf(source).all<{ id: string }>('SELECT id FROM tasks ORDER BY id')).map((r) => r.id);
    const runIds = (await dbOf(source).all<{ id: string }>('SELECT id FROM automation_runs')).map((r) => r.id);
    const paths = [
      '/api/v1/workspaces',
      `/api/v1/workspaces/${source.workspaceId}/members`,
      `/api/v1/workspaces/${source.workspaceId}/secrets`,
      `/api/v1/folders/${source.workspaceId}/projects`,
      `/api/v1/folders/${source.workspaceId}/medias`,
      `/api/v1/medias/${mediaId}`,
      `/api/v1/projects/${projectId}`,
      `/api/v1/projects/${projectId}/tasks`,
      ...taskIds.flatMap((id) => [
        `/api/v1/projects/${projectId}/tasks/${id}`,
        `/api/v1/projects/${projectId}/tasks/${id}/note`,
        `/api/v1/projects/${projectId}/tasks/${id}/comments`,
        `/api/v1/projects/${projectId}/tasks/${id}/assignees`,
      ]),
      `/api/v1/automations?workspaceId=${source.workspaceId}`,
      `/api/v1/automations/${automationId}`,
      `/api/v1/automations/${automationId}/versions`,
      `/api/v1/automations/${automationId}/runs`,
      ...runIds.map((id) => `/api/v1/automations/${automationId}/runs/${id}`),
      '/api/v2/webhooks',
    ];
    const read = async (server: TestServer, token: string, urlPath: string) => {
      const res = await call(server.url, 'GET', urlPath, { token });
      return { path: urlPath, status: res.status, body: JSON.parse(JSON.stringify(res.body).replaceAll(server.url, 'BASE')) };
    };
    for (const urlPath of paths) {
      const after = await read(upgraded, upgraded.token, urlPath);
      // A task without a note answers 404 on both.
      if (!urlPath.endsWith('/note')) expect([urlPath, after.status]).toEqual([urlPath, 200]);
      const before = await read(source, source.token, urlPath);
      if (urlPath.endsWith('/versions')) {
        // A version's author is a column added after the oldest schema (migration 027): old versions have none.
        for (const item of before.body.items) delete item.author;
      }
      expect(after).toEqual(before);
    }
    expect(await read(upgraded, bobToken, '/api/v1/workspaces')).toEqual(await read(source, bobToken, '/api/v1/workspaces'));
    expect(await mediaBytes(upgraded, mediaId)).toEqual(bytes);
    // And it goes on working: a write after the upgrade.
    expect((await addTasks(upgraded, projectId, ['after the upgrade'])).length).toBe(1);
  }, 120_000);
});
