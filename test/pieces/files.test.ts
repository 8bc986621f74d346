import path from 'node:path';
import { FormData, request } from 'undici';
import { client, OWNER_TOKEN, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, receiver } from '../automations/helpers';
import type { Answer } from '../engine/helpers';

const FILES_PROBE = path.join(__dirname, 'fixtures', 'files-probe');
/** The media size limit of the test server: a written file past it is refused. */
const MEDIA_MAX = 4000;

/**
 * Files of pieces (docs/integrations.md "Files"): a piece's `FILE` property names a media item of
 * the automation's workspace, and the piece gets its bytes as an ApFile (`filename`, `extension`,
 * `data` a Buffer, `base64`); `context.files.write` stores bytes as a new media item of the
 * workspace and answers its content URL, which a later step's `FILE` property takes; another
 * workspace's media id is refused as unknown.
 */
describe('pieces: files', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', FILES_PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    expect(added.out).toMatch(/^taskspace-files-probe\ttaskspace-files-probe@1\.0\.0\t4 actions/);
    server = await startServer({ dataDir, env: { ...AUTOMATION_ENV, TASKSPACE_MEDIA_MAX_BYTES: String(MEDIA_MAX) } });
    api = client(server, server.token);
    rx = await receiver(() => ({ status: 200, body: { ok: true } }));
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  /** Uploads `bytes` as `name` to a folder through the media API. */
  async function upload(folderId: string, bytes: Buffer, name: string): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
    const res = await request(`${server.url}/api/v1/folders/${folderId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
      body: form,
    });
    const body = (await res.body.json()) as { item: { id: string; url: string } };
    expect(res.statusCode).toBe(200);
    return body.item;
  }

  async function download(mediaId: string): Promise<Buffer> {
    const res = await request(`${server.url}/api/v1/medias/${mediaId}/content`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return Buffer.from(await res.body.arrayBuffer());
  }

  async function testRun(actions: unknown[], payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'Files', trigger: { type: 'webhook' }, actions });
    return (await api.post(`/api/v1/automations/${automation.id}/test`, { payload })).body.item;
  }

  /** Every byte value, twice, and some invalid UTF-8: what only a byte-exact path keeps. */
  const BYTES = Buffer.concat([Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)), Buffer.from([0xff, 0xfe, 0xc3, 0x28])]);

  test('a FILE property is an ApFile of the workspace media it names', async () => {
    const { body } = await api.get('/api/v1/automations/kinds');
    const send = body.actions.find((k: any) => k.type === 'taskspace-files-probe.send');
    expect(send.parameters.properties.props.properties.file).toMatchObject({
      type: 'string',
      description: expect.stringContaining('media id'),
    });

    const media = await upload(server.workspaceId, BYTES, 'report.bin');
    const run = await testRun(
      [{ id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/files`, file: '{{ trigger.mediaId }}' } }],
      { mediaId: media.id },
    );
    expect([run.status, run.steps[0].error]).toEqual(['completed', undefined]);
    expect(run.steps[0].output).toEqual({ status: 200, size: BYTES.length });
    const got = JSON.parse(rx.received.at(-1)!.body);
    expect(got).toMatchObject({ filename: 'report.bin', extension: 'bin', isBuffer: true });
    expect(Buffer.from(got.data, 'base64').equals(BYTES)).toBe(true);
    expect(got.base64).toBe(BYTES.toString('base64'));
  });

  test('files.write stores a media item of the workspace, readable through the media API; a later step sends it', async () => {
    const bytes = Buffer.concat([BYTES, Buffer.from('written')]);
    const run = await testRun([
      { id: 'write', type: 'taskspace-files-probe.write', props: { fileName: 'out.dat', base64: bytes.toString('base64') } },
      { id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/again`, file: '{{ steps.write.file }}' } },
    ]);
    expect([run.status, run.steps.map((s: any) => s.error)]).toEqual(['completed', [undefined, undefined]]);
    const reference: string = run.steps[0].output.file;
    const mediaId = /\/api\/v1\/medias\/([^/]+)\/content$/.exec(reference)?.[1];
    expect(mediaId).toEqual(expect.any(String));
    const item = (await api.get(`/api/v1/medias/${mediaId}`)).body.item;
    expect(item).toMatchObject({ id: mediaId, name: 'out.dat', size: bytes.length, space_id: server.workspaceId, url: reference });
    expect((await download(mediaId!)).equals(bytes)).toBe(true);
    const listed = (await api.get(`/api/v1/folders/${server.workspaceId}/medias`)).body.items.map((m: { id: string }) => m.id);
    expect(listed).toContain(mediaId);
    const got = JSON.parse(rx.received.at(-1)!.body);
    expect(rx.received.at(-1)!.url).toBe('/again');
    expect([got.filename, Buffer.from(got.data, 'base64').equals(bytes)]).toEqual(['out.dat', true]);
  });

  test('a piece uploads a file as bytes, with fetch and with http.request: the service receives them unchanged', async () => {
    const media = await upload(server.workspaceId, BYTES, 'photo.bin');
    for (const via of ['fetch', 'http']) {
      const run = await testRun([
        { id: 'up', type: 'taskspace-files-probe.upload', props: { url: `${rx.url}/upload-${via}`, file: media.id, via } },
      ]);
      expect([via, run.status, run.steps[0].error, run.steps[0].output]).toEqual([via, 'completed', undefined, { status: 200 }]);
      const got = rx.received.at(-1)!;
      expect([got.method, got.url, got.headers['content-type']]).toEqual(['PUT', `/upload-${via}`, 'application/octet-stream']);
      expect([via, got.raw.length, got.raw.equals(BYTES)]).toEqual([via, BYTES.length, true]);
    }
  });

  test('a piece downloads bytes, with fetch and with http.get, and stores them unchanged with files.write', async () => {
    const source = await receiver(() => ({ status: 200, body: BYTES }));
    try {
      for (const via of ['fetch', 'http']) {
        const run = await testRun([{ id: 'down', type: 'taskspace-files-probe.download', props: { url: `${source.url}/file`, via } }]);
        expect([via, run.status, run.steps[0].error]).toEqual([via, 'completed', undefined]);
        expect(run.steps[0].output.size).toBe(BYTES.length);
        const mediaId = /\/api\/v1\/medias\/([^/]+)\/content$/.exec(run.steps[0].output.file)?.[1];
        expect((await download(mediaId!)).equals(BYTES)).toBe(true);
      }
    } finally {
      await source.close();
    }
  });

  test('a piece may download up to the file limit (10 MiB), past the HTTP default of 1 MiB; more fails RESPONSE_TOO_LARGE', async () => {
    const sizes = [2 * 1024 * 1024, 10 * 1024 * 1024 + 1];
    const source = await receiver((r) => ({ status: 200, body: Buffer.alloc(sizes[Number(r.url === '/big')]!, 1) }));
    try {
      // 2 MiB arrive whole; this server's media limit then refuses to store them.
      const fits = await testRun([
        { id: 'down', type: 'taskspace-files-probe.download', props: { url: `${source.url}/fits`, via: 'fetch' } },
      ]);
      expect(fits.steps[0].error).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('TASKSPACE_MEDIA_MAX_BYTES') });
      const big = await testRun([{ id: 'down', type: 'taskspace-files-probe.download', props: { url: `${source.url}/big`, via: 'http' } }]);
      expect([big.status, big.steps[0].error?.message]).toEqual(['failed', expect.stringContaining('exceeds 10485760 bytes')]);
    } finally {
      await source.close();
    }
  });

  test("another workspace's media, or a missing one: refused at save when written out, a step failure naming the property when a template renders it; nothing is sent", async () => {
    const other = await api.post('/api/v1/workspaces', { name: 'Other' });
    expect(other.status).toBe(200);
    const foreign = await upload(other.body.item.id, BYTES, 'secret.bin');
    // The owner of both workspaces reads it through the API: only the automation's workspace counts.
    expect((await download(foreign.id)).equals(BYTES)).toBe(true);
    const before = rx.received.length;
    for (const file of [foreign.id, foreign.url, 'no-such-media']) {
      const saved = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Files',
        trigger: { type: 'webhook' },
        actions: [{ id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/leak`, file } }],
      });
      const mediaId = file === foreign.url ? foreign.id : file;
      expect([file, saved.status, saved.body.error]).toEqual([
        file,
        400,
        expect.objectContaining({
          code: 'VALIDATION_ERROR',
          message: `actions[0].props.file: media '${mediaId}' is not in this workspace`,
        }),
      ]);
      const run = await testRun(
        [{ id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/leak`, file: '{{ trigger.file }}' } }],
        { file },
      );
      expect([file, run.status]).toEqual([file, 'failed']);
      expect(run.steps[0].error).toMatchObject({ code: 'MEDIA_NOT_FOUND', message: expect.stringContaining('props.file') });
    }
    expect(rx.received.length).toBe(before);
  });

  test('a FILE property given a URL: the host downloads it through the guard (redirects, Content-Disposition name); data: URLs decode', async () => {
    const source = await receiver((r): Answer => {
      if (r.url === '/moved') return { status: 302, headers: { location: '/files/scan%201.pdf' } };
      if (r.url === '/files/scan%201.pdf') return { status: 200, body: BYTES };
      if (r.url === '/named')
        return {
          status: 200,
          body: BYTES,
          headers: { 'content-disposition': 'attachment; filename="x.bin"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.docx' },
        };
      return { status: 404, body: { error: 'gone' } };
    });
    try {
      const cases: [string, string, string][] = [
        [`${source.url}/moved`, 'scan 1.pdf', 'pdf'],
        [`${source.url}/named`, 'résumé.docx', 'docx'],
        [`data:image/png;base64,${BYTES.toString('base64')}`, 'file.png', 'png'],
      ];
      for (const [file, filename, extension] of cases) {
        const run = await testRun([{ id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/from-url`, file } }]);
        expect([file.slice(0, 40), run.status, run.steps[0].error]).toEqual([file.slice(0, 40), 'completed', undefined]);
        const got = JSON.parse(rx.received.at(-1)!.body);
        expect([got.filename, got.extension, got.isBuffer]).toEqual([filename, extension, true]);
        expect(Buffer.from(got.data, 'base64').equals(BYTES)).toBe(true);
      }
      const text = await testRun([
        { id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/from-url`, file: 'data:,hello%20world' } },
      ]);
      const got = JSON.parse(rx.received.at(-1)!.body);
      expect([text.status, got.filename, Buffer.from(got.data, 'base64').toString()]).toEqual(['completed', 'file.txt', 'hello world']);
    } finally {
      await source.close();
    }
  });

  test('a URL that fails, or that the guard refuses, fails the step naming the property before the piece runs', async () => {
    const source = await receiver(() => ({ status: 404, body: { error: 'gone' } }));
    const before = rx.received.length;
    try {
      const missing = await testRun([
        { id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/never`, file: `${source.url}/missing.pdf` } },
      ]);
      expect([missing.status, missing.steps[0].error]).toEqual([
        'failed',
        expect.objectContaining({ code: 'FILE_DOWNLOAD_FAILED', message: expect.stringContaining('props.file') }),
      ]);
      expect(missing.steps[0].error.message).toContain('HTTP 404');
      for (const file of ['http://169.254.169.254/latest/meta-data/iam', 'http://[::ffff:169.254.169.254]/latest/meta-data/']) {
        const refused = await testRun([{ id: 'send', type: 'taskspace-files-probe.send', props: { url: `${rx.url}/never`, file } }]);
        expect([file, refused.status, refused.steps[0].error.code]).toEqual([file, 'failed', 'BLOCKED_TARGET']);
        expect(refused.steps[0].error.message).toContain('props.file');
      }
      expect(source.received.map((r) => r.url)).toEqual(['/missing.pdf']);
      expect(rx.received.length).toBe(before);
    } finally {
      await source.close();
    }
  });

  test('files.write past the media size limit fails the step with FILE_TOO_LARGE and stores nothing', async () => {
    const before = (await api.get(`/api/v1/folders/${server.workspaceId}/medias`)).body.items.length;
    const big = Buffer.alloc(MEDIA_MAX + 1, 7);
    const run = await testRun([
      { id: 'write', type: 'taskspace-files-probe.write', props: { fileName: 'big.dat', base64: big.toString('base64') } },
    ]);
    expect(run.status).toBe('failed');
    expect(run.steps[0].error).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining(String(MEDIA_MAX)) });
    expect((await api.get(`/api/v1/folders/${server.workspaceId}/medias`)).body.items.length).toBe(before);
  });
});
