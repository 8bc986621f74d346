import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { FormData, request } from 'undici';
import { client, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type ChildServer, type TestServer } from '../helpers/server';
import { testSqliteOnly } from '../helpers/test-store';
import { waitFor } from '../helpers/wait';

/**
 * A full disk (docs "API", "Errors"): a write the storage cannot hold is `507 INSUFFICIENT_STORAGE`
 * in the error envelope — not `500`, and not a `400` blaming the client — and the server logs it
 * at error level.
 */
describe('storage full', () => {
  testSqliteOnly(
    'a write the SQLite file cannot hold (SQLITE_FULL) is 507 INSUFFICIENT_STORAGE; it succeeds once there is room',
    async () => {
      const server: TestServer = await startServer();
      try {
        const api = client(server, server.token);
        const projectId = (
          await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content: '# Full\n- first' })
        ).body.item.id;
        const db = server.built.storage.db!;
        const pages = db.pragma('page_count', { simple: true }) as number;
        // The file may not grow past its current size: SQLite answers SQLITE_FULL, as on a full disk.
        db.pragma(`max_page_count = ${pages}`);
        const many = {
          tasks: Array.from({ length: 100 }, (_, i) => ({ contentType: 'text/markdown', content: `${i} ${'x'.repeat(1900)}` })),
        };
        const tasks = await api.post(`/api/v1/projects/${projectId}/tasks`, many);
        expect(tasks.status).toBe(507);
        expect(tasks.body).toMatchObject({ ok: false, code: 'INSUFFICIENT_STORAGE', error: { code: 'INSUFFICIENT_STORAGE' } });
        const content = `# Big\n${many.tasks.map((t) => `- ${t.content}`).join('\n')}`;
        const project = await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown', content });
        expect(project.status).toBe(507);
        expect(project.body.code).toBe('INSUFFICIENT_STORAGE');

        db.pragma('max_page_count = 1073741823');
        expect((await api.post(`/api/v1/projects/${projectId}/tasks`, many)).status).toBe(200);
      } finally {
        await server.close();
      }
    },
  );

  /**
   * A real full file system: a 1 MiB tmpfs mounted on the data directory's `media` folder, where
   * uploads are streamed first (needs root, as CI runs; skipped otherwise). The server runs in a
   * child process so its error log can be read.
   */
  const asRoot = process.getuid?.() === 0;
  (asRoot ? test : test.skip)(
    'a media upload that fills the disk (ENOSPC) is 507 INSUFFICIENT_STORAGE, logged at error level',
    async () => {
      const dataDir = tempDataDir();
      const mediaDir = path.join(dataDir, 'media');
      fs.mkdirSync(mediaDir);
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mediaDir], { encoding: 'utf8' });
      expect(mounted.stderr).toBe('');
      expect(mounted.status).toBe(0);
      let server: ChildServer | undefined;
      try {
        // spawnServer runs server/dist: `npm test` builds it first; alone, run `npx tsc -b server`.
        server = await spawnServer(dataDir, { TASKSPACE_LOG_LEVEL: 'error', TASKSPACE_MEDIA_STORE: 'files' });
        const form = new FormData();
        form.append('file', new Blob([Buffer.alloc(3 * 1024 * 1024, 7)], { type: 'application/octet-stream' }), 'big.bin');
        const res = await request(`${server.url}/api/v1/folders/${await homeFolder(server.url)}/medias`, {
          method: 'POST',
          headers: { authorization: `Bearer ${OWNER_TOKEN}` },
          body: form,
        });
        const body = JSON.parse(await res.body.text());
        expect(res.statusCode).toBe(507);
        expect(body).toMatchObject({ ok: false, code: 'INSUFFICIENT_STORAGE' });
        const logged = await waitFor(
          () =>
            server!
              .output()
              .split('\n')
              .find((l) => l.includes('storage full')),
          'the error log line',
        );
        expect(JSON.parse(logged)).toMatchObject({ level: 50, err: { code: 'ENOSPC' } });
        // Nothing was kept: the partial upload was removed, so the disk has room again.
        expect(fs.readdirSync(path.join(mediaDir, '.tmp'))).toEqual([]);
      } finally {
        await server?.stop();
        spawnSync('umount', ['-l', mediaDir]);
      }
    },
  );
});

/** The bootstrap workspace's home folder (its id is the workspace's). */
async function homeFolder(url: string): Promise<string> {
  const res = await request(`${url}/api/v1/workspaces`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
  return (JSON.parse(await res.body.text()) as { items: { id: string }[] }).items[0]!.id;
}
