import { client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

/** A task tree as compared in these tests: text, completion and children. */
interface Node {
  text: string;
  completed?: true;
  children?: Node[];
}

describe('project creation from markdown and plain text', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
  });
  afterAll(() => server.close());

  /** Every task of a project through `GET /projects/{id}/tasks` (cursor pages), rebuilt as a tree. */
  async function treeOf(projectId: string): Promise<Node[]> {
    const items: { id: string; text: string; completed: boolean; parentId?: string }[] = [];
    for (;;) {
      const after = items.length ? `&after=${items[items.length - 1]!.id}` : '';
      const res = await api.get(`/api/v1/projects/${projectId}/tasks?limit=500${after}`);
      expect(res.status).toBe(200);
      items.push(...res.body.items);
      if (res.body.items.length < 500) break;
    }
    const nodes = new Map<string, Node>();
    const roots: Node[] = [];
    for (const item of items) {
      const node: Node = { text: item.text, ...(item.completed ? { completed: true as const } : {}) };
      nodes.set(item.id, node);
      if (item.parentId === undefined) roots.push(node);
      else (nodes.get(item.parentId)!.children ??= []).push(node);
    }
    return roots;
  }

  async function create(content: string, contentType = 'text/markdown') {
    return api.post('/api/v1/projects', { folderId: server.workspaceId, contentType, content });
  }

  test('the first heading names the project; lists, nesting, checkboxes and later headings build the tree', async () => {
    const content = [
      '# Launch **plan**',
      '',
      'Kick-off meeting',
      'with everyone',
      '',
      '- [ ] Write the brief',
      '  - [x] Collect notes',
      '  - Draft',
      '    1. outline',
      '    2. first pass',
      '- A long item',
      '  that wraps',
      '',
      '## Design',
      '',
      '* [X] Mockups',
      '* Review with `team`',
      '',
      '## Build',
      'Ship it',
    ].join('\n');
    const res = await create(content);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.any(String),
        name: 'Launch **plan**',
        folderId: server.workspaceId,
        workspaceId: server.workspaceId,
        completed: false,
        completedAt: null,
        isTemplate: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    expect(await treeOf(res.body.item.id)).toEqual<Node[]>([
      { text: 'Kick-off meeting with everyone' },
      {
        text: 'Write the brief',
        children: [
          { text: 'Collect notes', completed: true },
          { text: 'Draft', children: [{ text: 'outline' }, { text: 'first pass' }] },
        ],
      },
      { text: 'A long item that wraps' },
      { text: 'Design', children: [{ text: 'Mockups', completed: true }, { text: 'Review with `team`' }] },
      { text: 'Build', children: [{ text: 'Ship it' }] },
    ]);
  });

  test('headings at any level after the first become top-level blocks; setext headings count', async () => {
    const res = await create('Plan\n====\n\n### Deep\n- a\n\nSection\n-------\n- b\n  - c\n');
    expect(res.body.item.name).toBe('Plan');
    expect(await treeOf(res.body.item.id)).toEqual([
      { text: 'Deep', children: [{ text: 'a' }] },
      { text: 'Section', children: [{ text: 'b', children: [{ text: 'c' }] }] },
    ]);
  });

  test('no heading: "Untitled project", and everything is top-level', async () => {
    const res = await create('- one\n- two\n\nA paragraph\n');
    expect(res.status).toBe(200);
    expect(res.body.item.name).toBe('Untitled project');
    expect(await treeOf(res.body.item.id)).toEqual([{ text: 'one' }, { text: 'two' }, { text: 'A paragraph' }]);
  });

  test('empty content makes an empty untitled project', async () => {
    const res = await create('');
    expect(res.body.item.name).toBe('Untitled project');
    expect(await treeOf(res.body.item.id)).toEqual([]);
  });

  test('items without text are dropped and their children take their place; quotes, code and tables become tasks', async () => {
    const content = [
      '# Odd shapes',
      '- [ ]',
      '- - nested only',
      '- item',
      '',
      '  second paragraph of the item',
      '',
      '> quoted line',
      '',
      '```',
      'npm install',
      'npm test',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '---',
      '<b>html</b>',
    ].join('\n');
    const res = await create(content);
    expect(await treeOf(res.body.item.id)).toEqual([
      { text: 'nested only' },
      { text: 'item', children: [{ text: 'second paragraph of the item' }] },
      { text: 'quoted line' },
      { text: 'npm install npm test' },
      { text: 'a | b' },
      { text: '1 | 2' },
      { text: '<b>html</b>' },
    ]);
  });

  test('text/plain: the first non-empty line names the project, each further line is a task', async () => {
    const res = await create('\n  Groceries  \r\nmilk\n\n  - eggs\r# not a heading\n', 'text/plain');
    expect(res.status).toBe(200);
    expect(res.body.item.name).toBe('Groceries');
    expect(await treeOf(res.body.item.id)).toEqual([{ text: 'milk' }, { text: '- eggs' }, { text: '# not a heading' }]);
    const blank = await create('  \n\n', 'text/plain');
    expect(blank.body.item.name).toBe('Untitled project');
  });

  test('a task over 2000 characters is 400 task_too_long and nothing is created', async () => {
    const before = (await api.get(`/api/v1/folders/${server.workspaceId}/projects`)).body.items.length;
    const ok = await create(`# Fits\n- ${'é'.repeat(2000)}`);
    expect(ok.status).toBe(200);
    for (const [content, type] of [
      [`# Long\n- short\n- ${'x'.repeat(2001)}`, 'text/markdown'],
      [`# Long\n\n${'word '.repeat(400)}and more`, 'text/markdown'],
      [`Long\n${'y'.repeat(2001)}`, 'text/plain'],
    ] as const) {
      const res = await create(content, type);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_ERROR', details: { field: 'content', reason: 'task_too_long' } },
      });
    }
    const after = (await api.get(`/api/v1/folders/${server.workspaceId}/projects`)).body.items.length;
    expect(after).toBe(before + 1);
  });

  test('a project name over 200 characters is 400 title_too_long', async () => {
    expect((await create(`# ${'n'.repeat(200)}`)).status).toBe(200);
    const res = await create(`# ${'n'.repeat(201)}\n- a`);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'content', reason: 'title_too_long' });
    const plain = await create(`${'n'.repeat(201)}\nb`, 'text/plain');
    expect(plain.body.error.details).toEqual({ field: 'content', reason: 'title_too_long' });
  });

  test('lists nested 48 deep are kept whole; deeper nesting is 400 too_deep instead of being cut', async () => {
    const nested = (depth: number) => ['# Deep', ...Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- level ${i}`)].join('\n');
    const ok = await create(nested(48));
    expect(ok.status).toBe(200);
    let node = (await treeOf(ok.body.item.id))[0];
    for (let i = 0; i < 47; i++) {
      expect(node!.text).toBe(`level ${i}`);
      node = node!.children![0];
    }
    expect(node).toEqual({ text: 'level 47' });
    for (const content of [nested(49), '>'.repeat(5000) + ' quoted']) {
      const res = await create(content);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual({ field: 'content', reason: 'too_deep' });
    }
  });

  test('10,000 tasks are accepted, 10,001 are 400 too_many_tasks', async () => {
    const lines = (n: number) => ['Big', ...Array.from({ length: n }, (_, i) => `task ${i}`)].join('\n');
    const ok = await create(lines(10_000), 'text/plain');
    expect(ok.status).toBe(200);
    const rows = (await dbOf(server).get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE project_id = ?', ok.body.item.id))!;
    expect(rows.n).toBe(10_000);
    const first = await api.get(`/api/v1/projects/${ok.body.item.id}/tasks?limit=2`);
    expect(first.body.items.map((t: { text: string }) => t.text)).toEqual(['task 0', 'task 1']);
    const tooMany = await create(lines(10_001), 'text/plain');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details).toEqual({ field: 'content', reason: 'too_many_tasks' });
    const nested = await create(`# Big\n${Array.from({ length: 10_001 }, (_, i) => `- t${i}`).join('\n')}`);
    expect(nested.body.error.details).toEqual({ field: 'content', reason: 'too_many_tasks' });
  });

  test('content over the 1 MiB body limit is refused with 413', async () => {
    const res = await create('x'.repeat(1_100_000), 'text/plain');
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  test('with a larger body limit, content over 1,048,576 characters is 400 too_long', async () => {
    const big = await startServer({ env: { TASKSPACE_BODY_LIMIT_BYTES: String(3 * 1024 * 1024) } });
    try {
      const bigApi = client(big, OWNER_TOKEN);
      const body = (content: string) => ({ folderId: big.workspaceId, contentType: 'text/plain', content });
      const over = await bigApi.post('/api/v1/projects', body('x'.repeat(1_048_577)));
      expect(over.status).toBe(400);
      expect(over.body.error.details).toEqual({ field: 'content', reason: 'too_long' });
      const atLimit = await bigApi.post('/api/v1/projects', body(`Name\n${'y\n'.repeat(524_285)}`));
      expect(atLimit.status).toBe(400); // within the length limit, so the task limit speaks
      expect(atLimit.body.error.details).toEqual({ field: 'content', reason: 'too_many_tasks' });
    } finally {
      await big.close();
    }
  });

  test('the workspace endpoint creates in the home folder; isTemplate makes a template', async () => {
    const res = await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/markdown',
      content: '# Onboarding\n- [x] Say hello',
      isTemplate: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ name: 'Onboarding', folderId: server.workspaceId, isTemplate: true });
    expect(await treeOf(res.body.item.id)).toEqual([{ text: 'Say hello', completed: true }]);
  });

  test('validation: contentType enum, required fields, folderId min length', async () => {
    const cases: [unknown, string, string][] = [
      [{ folderId: server.workspaceId, contentType: 'text/html', content: 'x' }, 'contentType', 'invalid_value'],
      [{ folderId: server.workspaceId, content: 'x' }, 'contentType', 'required'],
      [{ folderId: server.workspaceId, contentType: 'text/plain' }, 'content', 'required'],
      [{ contentType: 'text/plain', content: 'x' }, 'folderId', 'required'],
      [{ folderId: '', contentType: 'text/plain', content: 'x' }, 'folderId', 'too_short'],
      [{ folderId: server.workspaceId, contentType: 'text/plain', content: 'x', isTemplate: 'maybe' }, 'isTemplate', 'invalid_type'],
    ];
    for (const [body, field, reason] of cases) {
      const res = await api.post('/api/v1/projects', body);
      expect({ status: res.status, details: res.body.error?.details }).toEqual({ status: 400, details: { field, reason } });
    }
    const ws = await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/markdown' });
    expect(ws.body.error.details).toEqual({ field: 'content', reason: 'required' });
  });

  test('unknown folder or workspace is 404', async () => {
    const res = await api.post('/api/v1/projects', { folderId: 'nope', contentType: 'text/plain', content: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const ws = await api.post('/api/v1/workspaces/nope/projects', { contentType: 'text/plain', content: 'x' });
    expect(ws.status).toBe(404);
  });
});
