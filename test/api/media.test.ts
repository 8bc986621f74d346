import fs from 'node:fs';
import path from 'node:path';
import { FormData, request } from 'undici';
import { addUser, call, client, startServer, OWNER_TOKEN, type Reply, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { onPostgres } from '../helpers/test-store';
import { loadConfig } from '../../server/src/config';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Uploads one file as multipart/form-data (field `file`) with undici's FormData. */
async function upload(
  server: TestServer,
  folderId: string,
  file: { name: string; type?: string; bytes: Buffer | string },
  token: string = OWNER_TOKEN,
): Promise<Reply> {
  const form = new FormData();
  const blob = new Blob([file.bytes], file.type === undefined ? {} : { type: file.type });
  form.append('file', blob, file.name);
  const res = await request(`${server.url}/api/v1/folders/${folderId}/medias`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : text };
}

/**
 * Downloads the bytes behind a media item's URL (served by `server`). The connection is not
 * kept alive: a client that has read all `content-length` bytes can finish before the server
 * has ended the streamed response, and a server closed at that moment would wait for the
 * keep-alive timeout.
 */
async function download(server: TestServer, url: string, token: string | null = OWNER_TOKEN) {
  const res = await request(server.url + new URL(url).pathname, {
    reset: true,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

function mediaFiles(server: TestServer): string[] {
  const dir = path.join(server.dataDir, 'media');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n !== '.tmp') : [];
}

function tempFiles(server: TestServer): string[] {
  const dir = path.join(server.dataDir, 'media', '.tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function mediaRows(server: TestServer): Promise<number> {
  return (await dbOf(server).value<number>('SELECT COUNT(*) AS n FROM media'))!;
}

/** A value of TASKSPACE_MEDIA_STORE. */
type MediaStore = 'files' | 'database';

/** The store a server uses when TASKSPACE_MEDIA_STORE is not set. */
const DEFAULT_STORE: MediaStore = onPostgres() ? 'database' : 'files';

/** What each media store holds, read (and damaged) behind the service's back. */
const held: Record<
  MediaStore,
  {
    bytes(server: TestServer, id: string): Promise<Buffer | undefined>;
    keys(server: TestServer): Promise<string[]>;
    lose(server: TestServer, id: string): Promise<void>;
  }
> = {
  files: {
    bytes: async (server, id) => {
      const file = path.join(server.dataDir, 'media', id);
      return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    },
    keys: async (server) => mediaFiles(server),
    lose: async (server, id) => fs.unlinkSync(path.join(server.dataDir, 'media', id)),
  },
  database: {
    bytes: async (server, id) => {
      const rows = await dbOf(server).all<{ bytes: Buffer }>('SELECT bytes FROM media_chunks WHERE media_id = ? ORDER BY seq', id);
      return rows.length ? Buffer.concat(rows.map((row) => row.bytes)) : undefined;
    },
    keys: async (server) =>
      (await dbOf(server).all<{ media_id: string }>('SELECT DISTINCT media_id FROM media_chunks')).map((row) => row.media_id),
    lose: async (server, id) => {
      await dbOf(server).run('DELETE FROM media_chunks WHERE media_id = ?', id);
    },
  },
};

describe.each(['files', 'database'] as const)('media on TASKSPACE_MEDIA_STORE=%s: upload, get, list, download, delete', (mediaStore) => {
  const PUBLIC = 'https://files.example.org';
  const store = held[mediaStore];
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_PUBLIC_URL: PUBLIC, TASKSPACE_MEDIA_STORE: mediaStore } });
    api = client(server, OWNER_TOKEN);
  });
  afterAll(() => server.close());

  test('upload answers the media item with an absolute content URL on TASKSPACE_PUBLIC_URL', async () => {
    const res = await upload(server, server.workspaceId, { name: 'notes.txt', type: 'text/plain', bytes: 'hello media' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        space_id: server.workspaceId,
        kind: 'text',
        name: 'notes.txt',
        contentType: 'text/plain',
        size: 11,
        url: `${PUBLIC}/api/v1/medias/${res.body.item.id}/content`,
        createdAt: expect.stringMatching(ISO),
      },
    });
    const got = await api.get(`/api/v1/medias/${res.body.item.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect((await store.bytes(server, res.body.item.id))?.toString('utf8')).toBe('hello media');
  });

  test('a file of several chunks (512 KiB each in the database) downloads whole and in order', async () => {
    const bytes = Buffer.alloc(1_200_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
    const item = (await upload(server, server.workspaceId, { name: 'big.bin', type: 'application/x-big', bytes })).body.item;
    expect(item.size).toBe(bytes.length);
    const res = await download(server, item.url);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect((await store.bytes(server, item.id))?.equals(bytes)).toBe(true);
    if (mediaStore === 'database') {
      expect(await dbOf(server).all('SELECT seq, length(bytes) AS n FROM media_chunks WHERE media_id = ? ORDER BY seq', item.id)).toEqual([
        { seq: 0, n: 524288 },
        { seq: 1, n: 524288 },
        { seq: 2, n: 1_200_000 - 2 * 524288 },
      ]);
    }
  });

  test('download streams the bytes with the stored content type, length and an attachment disposition', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255]);
    const item = (await upload(server, server.workspaceId, { name: 'pixel ü;x.png', type: 'image/png', bytes })).body.item;
    const res = await download(server, item.url);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="pixel _;x.png"; filename*=UTF-8''pixel%20%C3%BC%3Bx.png`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await download(server, item.url, null)).status).toBe(401);
    expect((await api.get('/api/v1/medias/nope/content')).status).toBe(404);
  });

  test('kind follows the content type; octet-stream is guessed from the extension; names lose directories', async () => {
    const cases: [string, string | undefined, string, string][] = [
      ['a.jpg', 'image/jpeg', 'image', 'image/jpeg'],
      ['a.mp4', 'video/mp4', 'video', 'video/mp4'],
      ['a.mp3', 'audio/mpeg', 'audio', 'audio/mpeg'],
      ['a.pdf', 'application/pdf', 'document', 'application/pdf'],
      [
        'a.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'document',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      ['a.odt', 'application/vnd.oasis.opendocument.text', 'document', 'application/vnd.oasis.opendocument.text'],
      ['a.rtf', 'application/rtf', 'document', 'application/rtf'],
      ['a.csv', 'text/CSV', 'text', 'text/csv'],
      ['a.json', 'application/json', 'text', 'application/json'],
      ['a.zip', 'application/zip', 'archive', 'application/zip'],
      ['a.tgz', 'application/gzip', 'archive', 'application/gzip'],
      ['a.bin', 'application/x-custom', 'other', 'application/x-custom'],
      ['a.pdf', 'application/octet-stream', 'document', 'application/pdf'],
      ['a.weird', 'application/octet-stream', 'other', 'application/octet-stream'],
      ['A.PNG', 'not a type', 'image', 'image/png'],
    ];
    for (const [name, type, kind, contentType] of cases) {
      const res = await upload(server, server.workspaceId, { name, type, bytes: 'x' });
      expect({ name, status: res.status, kind: res.body.item.kind, contentType: res.body.item.contentType }).toEqual({
        name,
        status: 200,
        kind,
        contentType,
      });
    }
    const nested = await upload(server, server.workspaceId, { name: '../../etc/pa\u0001sswd', type: 'text/plain', bytes: 'x' });
    expect(nested.body.item.name).toBe('passwd');
  });

  test('an empty file is accepted with size 0', async () => {
    const res = await upload(server, server.workspaceId, { name: 'empty.txt', type: 'text/plain', bytes: '' });
    expect(res.status).toBe(200);
    expect(res.body.item.size).toBe(0);
    expect((await download(server, res.body.item.url)).bytes.length).toBe(0);
  });

  test('a body that is not multipart is 415; a multipart body without a file is 400; nothing is stored', async () => {
    const before = await mediaRows(server);
    const json = await api.post(`/api/v1/folders/${server.workspaceId}/medias`, { file: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const none = await call(server.url, 'POST', `/api/v1/folders/${server.workspaceId}/medias`, { token: OWNER_TOKEN });
    expect(none.status).toBe(415);
    const octets = await call(server.url, 'POST', `/api/v1/folders/${server.workspaceId}/medias`, {
      token: OWNER_TOKEN,
      rawBody: Buffer.from('abc'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(octets.status).toBe(415);
    const form = new FormData();
    form.append('title', 'no file here');
    const res = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
      body: form,
    });
    const body = (await res.body.json()) as any;
    expect(res.statusCode).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file', reason: 'required' } });
    expect(await mediaRows(server)).toBe(before);
  });

  test('malformed multipart bodies are 400 and leave nothing behind; only the first file of a request is kept', async () => {
    const before = await mediaRows(server);
    const post = (rawBody: string, contentType: string) =>
      call(server.url, 'POST', `/api/v1/folders/${server.workspaceId}/medias`, {
        token: OWNER_TOKEN,
        rawBody,
        headers: { 'content-type': contentType },
      });
    const noBoundary = await post('garbage', 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.error.details).toEqual({ field: 'file', reason: 'invalid_format' });
    const part = (name: string, file: string, bytes: string) =>
      `--xyz\r\nContent-Disposition: form-data; name="${name}"; filename="${file}"\r\nContent-Type: text/plain\r\n\r\n${bytes}`;
    const cut = await post(part('file', 'a.txt', 'hello'), 'multipart/form-data; boundary=xyz');
    expect(cut.status).toBe(400);
    expect(cut.body.error.details).toEqual({ field: 'file', reason: 'incomplete' });
    expect(await mediaRows(server)).toBe(before);
    expect(tempFiles(server)).toEqual([]);
    const two = await post(
      `${part('file', 'a.txt', 'first')}\r\n${part('other', 'b.txt', 'second')}\r\n--xyz--\r\n`,
      'multipart/form-data; boundary=xyz',
    );
    expect(two.status).toBe(200);
    expect(two.body.item).toMatchObject({ name: 'a.txt', size: 5 });
    expect(await mediaRows(server)).toBe(before + 1);
  });

  test('list: newest first, limit default 100 and max 500, page', async () => {
    const folder = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Uploads' })).body.item.id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await upload(server, folder, { name: `f${i}.txt`, type: 'text/plain', bytes: String(i) })).body.item.id);
    const newest = [...ids].reverse();
    const list = await api.get(`/api/v1/folders/${folder}/medias`);
    expect(list.status).toBe(200);
    expect(list.body.ok).toBe(true);
    expect(list.body.items.map((m: any) => m.id)).toEqual(newest);
    expect(list.body.items[0]).toMatchObject({ name: 'f4.txt', space_id: folder, url: `${PUBLIC}/api/v1/medias/${newest[0]}/content` });
    expect((await api.get(`/api/v1/folders/${folder}/medias?limit=2&page=2`)).body.items.map((m: any) => m.id)).toEqual(newest.slice(2, 4));
    expect((await api.get(`/api/v1/folders/${folder}/medias?limit=500`)).body.items).toHaveLength(5);
    const tooBig = await api.get(`/api/v1/folders/${folder}/medias?limit=501`);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details).toEqual({ field: 'limit', reason: 'too_large' });
    expect((await api.get(`/api/v1/folders/${folder}/medias?page=0`)).status).toBe(400);
    expect((await api.get('/api/v1/folders/nope/medias')).status).toBe(404);
  });

  test('the default page size is 100', async () => {
    const folder = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Many' })).body.item.id;
    // One statement: the 101 rows land together.
    const bulk = Array.from({ length: 101 }, (_, i) => [`bulk${i}`, server.workspaceId, folder, `b${i}`, `bulk${i}`, 1000 + i]);
    const inserted = await dbOf(server).run(
      `INSERT INTO media (id, workspace_id, folder_id, kind, name, content_type, size_bytes, storage_key, created_at)
       VALUES ${bulk.map(() => "(?, ?, ?, 'text', ?, 'text/plain', 0, ?, ?)").join(', ')}`,
      ...bulk.flat(),
    );
    expect(inserted).toBe(101);
    const list = await api.get(`/api/v1/folders/${folder}/medias`);
    expect(list.body.items).toHaveLength(100);
    expect(list.body.items[0].id).toBe('bulk100');
    expect((await api.get(`/api/v1/folders/${folder}/medias?page=2`)).body.items.map((m: any) => m.id)).toEqual(['bulk0']);
  });

  test('delete removes the row and the bytes', async () => {
    const item = (await upload(server, server.workspaceId, { name: 'gone.txt', type: 'text/plain', bytes: 'bye' })).body.item;
    expect((await store.bytes(server, item.id))?.toString()).toBe('bye');
    const res = await api.delete(`/api/v1/medias/${item.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await store.bytes(server, item.id)).toBeUndefined();
    expect((await api.get(`/api/v1/medias/${item.id}`)).status).toBe(404);
    expect((await download(server, item.url)).status).toBe(404);
    expect((await api.delete(`/api/v1/medias/${item.id}`)).status).toBe(404);
  });

  test('missing bytes are a 404 on download, not a 500', async () => {
    const item = (await upload(server, server.workspaceId, { name: 'lost.txt', type: 'text/plain', bytes: 'x' })).body.item;
    await store.lose(server, item.id);
    const res = await download(server, item.url);
    expect(res.status).toBe(404);
    expect(res.bytes.toString()).toContain(`TASKSPACE_MEDIA_STORE=${mediaStore}`);
    expect((await api.delete(`/api/v1/medias/${item.id}`)).status).toBe(200);
  });

  test('media of a workspace the caller is not in are 404; Viewers read but cannot upload or delete', async () => {
    const item = (await upload(server, server.workspaceId, { name: 'secret.txt', type: 'text/plain', bytes: 's' })).body.item;
    const outsider = addUser(server, 'media-outsider');
    const viewer = addUser(server, 'media-viewer', { workspaceId: server.workspaceId, role: 'Viewer' });
    expect((await client(server, outsider).get(`/api/v1/medias/${item.id}`)).status).toBe(404);
    expect((await download(server, item.url, outsider)).status).toBe(404);
    expect((await upload(server, server.workspaceId, { name: 'x.txt', bytes: 'x' }, outsider)).status).toBe(404);
    expect((await client(server, viewer).get(`/api/v1/medias/${item.id}`)).status).toBe(200);
    expect((await download(server, item.url, viewer)).status).toBe(200);
    expect((await upload(server, server.workspaceId, { name: 'x.txt', bytes: 'x' }, viewer)).status).toBe(403);
    expect((await client(server, viewer).delete(`/api/v1/medias/${item.id}`)).status).toBe(403);
  });

  test('no temporary upload is left behind; the store holds the bytes of every item and nothing else', async () => {
    expect(tempFiles(server)).toEqual([]);
    const rows = await dbOf(server).all<{ storage_key: string }>('SELECT storage_key FROM media WHERE id NOT LIKE ?', 'bulk%');
    expect((await store.keys(server)).sort()).toEqual(rows.map((r) => r.storage_key).sort());
    if (mediaStore === 'database') expect(mediaFiles(server)).toEqual([]);
  });
});

test('TASKSPACE_MEDIA_STORE: files on SQLite and database on PostgreSQL unless set; anything else is a configuration error', () => {
  expect(loadConfig({}).mediaStore).toBe('files');
  expect(loadConfig({ DATABASE_URL: 'postgres://db.example/taskspace' }).mediaStore).toBe('database');
  expect(loadConfig({ DATABASE_URL: 'postgres://db.example/taskspace', TASKSPACE_MEDIA_STORE: 'Files' }).mediaStore).toBe('files');
  expect(loadConfig({ TASKSPACE_MEDIA_STORE: 'database' }).mediaStore).toBe('database');
  expect(() => loadConfig({ TASKSPACE_MEDIA_STORE: 's3' })).toThrow("TASKSPACE_MEDIA_STORE must be 'files' or 'database', got 's3'");
});

describe('media upload limit (TASKSPACE_MEDIA_MAX_BYTES=1024)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_MEDIA_MAX_BYTES: '1024' } });
  });
  afterAll(() => server.close());

  test('a file of exactly the limit is stored', async () => {
    const res = await upload(server, server.workspaceId, { name: 'max.bin', type: 'application/x-max', bytes: Buffer.alloc(1024, 7) });
    expect(res.status).toBe(200);
    expect(res.body.item.size).toBe(1024);
  });

  test('one byte over is 413 PAYLOAD_TOO_LARGE and nothing is written', async () => {
    const rows = await mediaRows(server);
    const files = await held[DEFAULT_STORE].keys(server);
    const res = await upload(server, server.workspaceId, { name: 'big.bin', type: 'application/x-big', bytes: Buffer.alloc(1025, 7) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      ok: false,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'the file is larger than the limit of 1024 bytes (TASKSPACE_MEDIA_MAX_BYTES)',
      statusMessage: 'Payload Too Large',
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'the file is larger than the limit of 1024 bytes (TASKSPACE_MEDIA_MAX_BYTES)' },
    });
    const much = await upload(server, server.workspaceId, { name: 'huge.bin', bytes: Buffer.alloc(300_000, 1) });
    expect(much.status).toBe(413);
    expect(await mediaRows(server)).toBe(rows);
    expect(await held[DEFAULT_STORE].keys(server)).toEqual(files);
    expect(tempFiles(server)).toEqual([]);
  });

  test('the JSON body limit does not apply to uploads below the media limit', async () => {
    const res = await upload(server, server.workspaceId, { name: 'ok.txt', type: 'text/plain', bytes: 'x'.repeat(1000) });
    expect(res.status).toBe(200);
  });
});

describe('media persist across a restart', () => {
  test('rows and bytes survive; leftover temporary uploads are swept at start', async () => {
    const first = await startServer();
    const item = (await upload(first, first.workspaceId, { name: 'keep.md', type: 'text/markdown', bytes: '# Keep' })).body.item;
    await first.close();
    fs.writeFileSync(path.join(first.dataDir, 'media', '.tmp', 'crashed-upload'), 'partial');
    const second = await startServer({ dataDir: first.dataDir });
    try {
      const got = await client(second, OWNER_TOKEN).get(`/api/v1/medias/${item.id}`);
      expect(got.body.item).toEqual({ ...item, url: `${second.url}/api/v1/medias/${item.id}/content` });
      expect((await download(second, got.body.item.url)).bytes.toString()).toBe('# Keep');
      expect(tempFiles(second)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

describe.each([
  ['files', 'database'],
  ['database', 'files'],
] as const)('media stored with TASKSPACE_MEDIA_STORE=%s, then served with %s', (before, after) => {
  test('stay downloadable, new uploads go to the new store, and a delete removes the old bytes', async () => {
    let server = await startServer({ env: { TASKSPACE_MEDIA_STORE: before } });
    const old = (await upload(server, server.workspaceId, { name: 'old.txt', type: 'text/plain', bytes: 'stored before' })).body.item;
    await server.close();
    server = await startServer({ dataDir: server.dataDir, env: { TASKSPACE_MEDIA_STORE: after } });
    try {
      const res = await download(server, old.url);
      expect([res.status, res.bytes.toString()]).toEqual([200, 'stored before']);
      const fresh = (await upload(server, server.workspaceId, { name: 'new.txt', type: 'text/plain', bytes: 'stored after' })).body.item;
      expect((await held[after].bytes(server, fresh.id))?.toString()).toBe('stored after');
      expect(await held[before].bytes(server, fresh.id)).toBeUndefined();
      expect((await client(server, OWNER_TOKEN).delete(`/api/v1/medias/${old.id}`)).status).toBe(200);
      expect(await held[before].bytes(server, old.id)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
