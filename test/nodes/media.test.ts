import { client } from '../helpers/server';
import { binaryBytes, byId, runNode, runOk, useTaskspaceServer } from './harness';

const MEDIA = 'n8n-nodes-taskspace.taskspaceMedia';
const server = useTaskspaceServer();
const api = () => client(server(), server().token);

function fileItem(text: string, fileName: string, mimeType = 'text/plain') {
  return { json: {}, binary: { data: { data: Buffer.from(text).toString('base64'), mimeType, fileName } } };
}

describe('Taskspace Media node', () => {
  test('upload from binary data, get, get many, download, delete', async () => {
    const [uploaded] = await runOk(server(), {
      type: MEDIA,
      input: [fileItem('# Notes\nhello', 'notes.md', 'text/markdown')],
      parameters: { resource: 'media', operation: 'upload', folderId: byId(server().workspaceId), binaryPropertyName: 'data' },
    });
    const mediaId = uploaded.json.id as string;
    expect(uploaded.json).toMatchObject({ name: 'notes.md', space_id: server().workspaceId, size: 13 });
    expect((await api().get(`/api/v1/medias/${mediaId}`)).body.item.name).toBe('notes.md');

    const [renamed] = await runOk(server(), {
      type: MEDIA,
      input: [fileItem('abc', 'x.txt')],
      parameters: {
        resource: 'media',
        operation: 'upload',
        folderId: byId(server().workspaceId),
        binaryPropertyName: 'data',
        options: { fileName: 'renamed "quoted".txt' },
      },
    });
    expect(renamed.json.name).toBe('renamed "quoted".txt');

    const [got] = await runOk(server(), { type: MEDIA, parameters: { resource: 'media', operation: 'get', mediaId } });
    expect(got.json.id).toBe(mediaId);
    const limited = await runOk(server(), {
      type: MEDIA,
      parameters: { resource: 'media', operation: 'getMany', folderId: byId(server().workspaceId), returnAll: false, limit: 1 },
    });
    expect(limited).toHaveLength(1);
    const all = await runOk(server(), {
      type: MEDIA,
      parameters: { resource: 'media', operation: 'getMany', folderId: byId(server().workspaceId), returnAll: true },
    });
    expect(all.map((i) => i.json.id).sort()).toEqual([mediaId, renamed.json.id].sort());

    const downloaded = await runNode(server(), {
      type: MEDIA,
      parameters: { resource: 'media', operation: 'download', mediaId, binaryPropertyName: 'file' },
    });
    expect(downloaded.error).toBeUndefined();
    const binary = downloaded.items[0].binary!.file;
    expect(binary).toMatchObject({ fileName: 'notes.md', mimeType: 'text/markdown' });
    expect((await binaryBytes(binary)).toString()).toBe('# Notes\nhello');
    expect(downloaded.items[0].pairedItem).toEqual({ item: 0 });

    await runOk(server(), { type: MEDIA, parameters: { resource: 'media', operation: 'delete', mediaId } });
    expect((await api().get(`/api/v1/medias/${mediaId}`)).status).toBe(404);
  });

  test('a missing binary field is a clear error before any request', async () => {
    const count = async () => (await api().get(`/api/v1/folders/${server().workspaceId}/medias`)).body.items.length;
    const before = await count();
    const result = await runNode(server(), {
      type: MEDIA,
      input: [{ json: {} }],
      parameters: { resource: 'media', operation: 'upload', folderId: byId(server().workspaceId), binaryPropertyName: 'data' },
    });
    expect(result.error?.message).toMatch(/binary/i);
    expect(await count()).toBe(before);
  });
});
