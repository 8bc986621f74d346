import fs from 'node:fs';
import path from 'node:path';
import { call, client, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type ChildServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { dbOf, openStore, type TestDb } from '../helpers/db';
import { AUTOMATION_ENV, createAutomation, runsOf, waitFor } from './helpers';

/**
 * The outbox readers (the automation consumer and the webhook dispatcher) persist a cursor advance
 * that caused no rows of its own lazily: at most once per second of the clock, and when they stop.
 * After a crash they read those events again, which starts no run twice.
 */

const ROOT = path.resolve(__dirname, '../..');
const WAITING = { name: 'Wait on every task', trigger: { type: 'task.added' }, actions: [{ type: 'delay', minutes: 60 }] };

type Cursors = Record<string, number>;
const cursorsOf = async (db: TestDb): Promise<Cursors> =>
  Object.fromEntries((await db.all<{ name: string; seq: number }>('SELECT name, seq FROM outbox_cursors')).map((r) => [r.name, r.seq]));
const lastSeqOf = async (db: TestDb): Promise<number> => (await db.value<number>('SELECT MAX(seq) AS seq FROM events'))!;

describe('outbox cursors', () => {
  test('an advance that caused no rows is written after a second of the clock, and at stop', async () => {
    let now = Date.parse('2026-11-25T10:00:00.000Z');
    const dataDir = tempDataDir();
    const server = await startServer({ env: AUTOMATION_ENV, dataDir, clock: { now: () => now } });
    const api = client(server, server.token);
    const db = dbOf(server);
    try {
      const automation = await createAutomation(api, server.workspaceId, WAITING);
      const projectId = await newProject(server);
      const before = await cursorsOf(db);
      for (const content of ['One', 'Two', 'Three']) {
        expect(
          (await api.post(`/api/v1/projects/${projectId}/tasks/`, { tasks: [{ contentType: 'text/markdown', content }] })).status,
        ).toBe(200);
      }
      await waitFor(async () => (await runsOf(api, automation.id)).length === 3, 'a run per task');
      // The consumer read every event, but the clock has not moved: nothing was written.
      expect(await cursorsOf(db)).toEqual(before);

      now += 1000;
      expect(
        (await api.post(`/api/v1/projects/${projectId}/tasks/`, { tasks: [{ contentType: 'text/markdown', content: 'Four' }] })).status,
      ).toBe(200);
      const afterFour = await lastSeqOf(db);
      await waitFor(async () => (await cursorsOf(db)).automations === afterFour, 'the automation cursor written once a second had passed');

      expect(
        (await api.post(`/api/v1/projects/${projectId}/tasks/`, { tasks: [{ contentType: 'text/markdown', content: 'Five' }] })).status,
      ).toBe(200);
      await waitFor(async () => (await runsOf(api, automation.id)).length === 5, 'a run per task');
      expect((await cursorsOf(db)).automations).toBe(afterFour);
    } finally {
      await server.close();
    }
    const reopened = openStore(dataDir, { readonly: true });
    try {
      const last = await lastSeqOf(reopened.db);
      expect(await cursorsOf(reopened.db)).toEqual({ automations: last, mail: last, webhooks: last });
    } finally {
      await reopened.close();
    }
  });

  describe('after kill -9', () => {
    let child: ChildServer | undefined;
    beforeAll(() => {
      if (!fs.existsSync(path.join(ROOT, 'server/dist/modules/events/cursors.js'))) {
        throw new Error('server/dist is missing: run `npx tsc -b server` before this suite');
      }
    });
    afterAll(() => child?.stop('SIGKILL'));

    test('events read again after a restart start no second run', async () => {
      const dataDir = tempDataDir();
      child = await spawnServer(dataDir, AUTOMATION_ENV);
      const api = (base: string) => ({
        get: (p: string) => call(base, 'GET', p, { token: OWNER_TOKEN }),
        post: (p: string, body: unknown) => call(base, 'POST', p, { token: OWNER_TOKEN, body }),
      });
      let remote = api(child.url);
      const workspaceId = (await remote.get('/api/v1/workspaces')).body.items[0].id as string;
      const automation = (await remote.post('/api/v1/automations', { workspaceId, ...WAITING })).body.item;
      const projectId = (
        await remote.post(`/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Crash' })
      ).body.item.id;
      const tasks = Array.from({ length: 20 }, (_, i) => ({ contentType: 'text/markdown', content: `Task ${i}` }));
      expect((await remote.post(`/api/v1/projects/${projectId}/tasks/`, { tasks })).status).toBe(200);
      const runs = async () =>
        (await remote.get(`/api/v1/automations/${automation.id}/runs?limit=100`)).body.items as {
          id: string;
          trigger: { eventId: string };
        }[];
      await waitFor(async () => (await runs()).length === 20, 'a run per task before the kill');
      await child.stop('SIGKILL');

      child = await spawnServer(dataDir, AUTOMATION_ENV);
      remote = api(child.url);
      expect(
        (await remote.post(`/api/v1/projects/${projectId}/tasks/`, { tasks: [{ contentType: 'text/markdown', content: 'After' }] })).status,
      ).toBe(200);
      await waitFor(async () => (await runs()).length >= 21, 'the run of the task added after the restart');
      const after = await runs();
      expect(after).toHaveLength(21);
      expect(new Set(after.map((run) => run.trigger.eventId)).size).toBe(21);
    });
  });
});
