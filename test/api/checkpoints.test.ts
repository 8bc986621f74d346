import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { client, startServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { describeSqliteOnly } from '../helpers/test-store';
import { waitFor } from '../helpers/wait';
import { SERVICE_CHECKPOINT_PAGES } from '../../server/src/platform/db/checkpointer';

/**
 * WAL checkpoints run in a worker thread while the server listens (platform/db/checkpointer.ts):
 * the service's connection checkpoints only past its larger mark, committed pages reach the
 * database file while the server runs (about 1 MB of tasks, well under that mark), and nothing is
 * lost at close.
 */
describeSqliteOnly('WAL checkpoints off the request path', () => {
  test('the worker copies committed pages into the database file before the service connection would', async () => {
    const server = await startServer();
    const file = path.join(server.dataDir, 'taskspace.sqlite');
    let projectId: string;
    try {
      const db = server.built.storage.db!;
      // The worker starts in the server's onListen hook, which runs after listen() has resolved.
      await waitFor(
        () => db.pragma('wal_autocheckpoint', { simple: true }) === SERVICE_CHECKPOINT_PAGES,
        'the checkpoint worker to take over',
      );
      const initial = fs.statSync(file).size;
      const api = client(server, server.token);
      projectId = await newProject(server);
      const content = 'A task with enough text to fill pages quickly. '.repeat(8);
      for (let batch = 0; batch < 20; batch++) {
        const tasks = Array.from({ length: 100 }, () => ({ contentType: 'text/plain', content }));
        expect((await api.post(`/api/v1/projects/${projectId}/tasks/`, { tasks })).status).toBe(200);
      }
      // About 1 MB of task text: the database file grows while the WAL holds the commits only until a checkpoint.
      await waitFor(() => fs.statSync(file).size > initial + 1_000_000, 'checkpointed pages in the database file');
    } finally {
      await server.close();
    }
    const reopened = new Database(file, { readonly: true });
    try {
      expect((reopened.prepare('SELECT COUNT(*) AS n FROM tasks WHERE project_id = ?').get(projectId) as { n: number }).n).toBe(2000);
    } finally {
      reopened.close();
    }
  });
});
