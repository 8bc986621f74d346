import fs from 'node:fs';
import path from 'node:path';
import { FormData, request } from 'undici';
import { dbOf } from '../helpers/db';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { call, OWNER_TOKEN, startServer, tempDataDir, type TestServer } from '../helpers/server';

/**
 * Media on PostgreSQL live in the database by default (TASKSPACE_MEDIA_STORE=database; docs
 * "Operations", "Media bytes"): a server with another data directory on the same database serves
 * the bytes another one stored, and nothing of them is written to a data directory.
 */
describe('media bytes in the PostgreSQL database', () => {
  let database: TestDatabase;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });

  /** A server on the test database with a data directory of its own. */
  async function serverOnDatabase(): Promise<TestServer> {
    const server = await startServer({ dataDir: tempDataDir(), env: { DATABASE_URL: database.url } });
    servers.push(server);
    return server;
  }

  test('a server with another data directory downloads, lists and deletes what the first one stored', async () => {
    const first = await serverOnDatabase();
    const bytes = Buffer.alloc(700_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'report.pdf');
    const uploaded = await request(`${first.url}/api/v1/folders/${first.workspaceId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
      body: form,
    });
    expect(uploaded.statusCode).toBe(200);
    const item = ((await uploaded.body.json()) as { item: { id: string; size: number } }).item;
    expect(item.size).toBe(bytes.length);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    // Only the empty temporary folder of the upload is in the first data directory.
    expect(fs.readdirSync(path.join(first.dataDir, 'media'))).toEqual(['.tmp']);
    expect(fs.readdirSync(path.join(first.dataDir, 'media', '.tmp'))).toEqual([]);

    const second = await serverOnDatabase();
    expect(second.dataDir).not.toBe(first.dataDir);
    const listed = await call(second.url, 'GET', `/api/v1/folders/${second.workspaceId}/medias`, { token: OWNER_TOKEN });
    expect(listed.body.items.map((m: { id: string }) => m.id)).toEqual([item.id]);
    const res = await request(`${second.url}/api/v1/medias/${item.id}/content`, {
      reset: true,
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(await res.body.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await call(second.url, 'DELETE', `/api/v1/medias/${item.id}`, { token: OWNER_TOKEN })).status).toBe(200);
    expect(await dbOf(second).value('SELECT count(*) AS n FROM media_chunks')).toBe(0);
  });
});
