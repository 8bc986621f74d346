import fs from 'node:fs';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { openStore } from '../helpers/db';

/**
 * The server is built by one composition root (`buildApp`): every cache and piece of state
 * belongs to the app that built it, and caches are checked against versions kept in the data,
 * so a second app (or a second process on the same database) never sees another's state.
 */

const ROOTS = ['server/src', 'engine/src'].map((dir) => path.join(__dirname, '..', '..', dir));

/**
 * Module-level declarations that hold mutable state: a top-level `let`/`var`, or a top-level
 * const bound to an empty new Map, Set, WeakMap, WeakSet or array (filled later). Collections
 * built from constant contents are lookup tables and are not matched.
 */
const MODULE_STATE =
  /^(?:export\s+)?(?:(?:let|var)\s+\w+|const\s+\w+(?:\s*:[^=]+)?\s*=\s*(?:new\s+(?:Weak)?(?:Map|Set)(?:<.*>)?\(\s*\)|\[\s*\]))/;

/** Allowed, with the reason: immutable values memoized by their only input. */
const ALLOWED = new Map([
  // Intl formatters per valid IANA zone: immutable, bounded by the zone list, identical in every app.
  ['server/src/modules/tasks/dates.ts', ['const formatters = new Map<string, Intl.DateTimeFormat>();']],
]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

test('no module of the server or the engine holds state of its own', () => {
  const files = ROOTS.flatMap(sourceFiles);
  expect(files.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const file of files) {
    const relative = path
      .relative(path.join(__dirname, '..', '..'), file)
      .split(path.sep)
      .join('/');
    const allowed = ALLOWED.get(relative) ?? [];
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (MODULE_STATE.test(line) && !allowed.includes(line.trim())) found.push(`${relative}:${index + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
  // The pattern itself catches what it is meant to catch.
  for (const line of [
    'const cache = new WeakMap<A, Map<string, B>>();',
    'let current = 0;',
    'export const seen: string[] = [];',
    'const keys = new Map();',
  ]) {
    expect(MODULE_STATE.test(line)).toBe(true);
  }
  expect(MODULE_STATE.test("const SAFE = new Set(['GET', 'HEAD']);")).toBe(false);
});

test('route plugins neither open transactions nor check access: the service functions they call do', () => {
  const server = path.join(__dirname, '..', '..', 'server', 'src');
  const routeFiles = [
    ...sourceFiles(server).filter((file) => /(?:^|[-/])routes\.ts$/.test(file) || file.endsWith('pages.ts')),
    ...sourceFiles(path.join(server, 'http')),
  ];
  expect(routeFiles.length).toBeGreaterThan(20);
  const found = routeFiles.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        /\b(?:transaction|require(?:Workspace|Folder|Project|Task))\(/.test(line)
          ? [`${path.basename(file)}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
  expect(found).toEqual([]);
});

describe('caches are correct in the data', () => {
  let server: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    server = await startServer();
    other = await startServer();
  });
  afterAll(async () => {
    await server?.close();
    await other?.close();
  });

  test('a task changed outside this app (another process on the same database) shows at once in the cached list', async () => {
    const projectId = await newProject(server, 'Versioned');
    const [task] = await addTasks(server, projectId, ['Before']);
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['Before']);
    // A second connection to the same database, as a second process would have.
    const second = openStore(server.dataDir);
    try {
      expect(await second.db.run('UPDATE tasks SET text = ? WHERE id = ?', 'Changed elsewhere', task!.id)).toBe(1);
    } finally {
      await second.close();
    }
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['Changed elsewhere']);
  });

  test('two apps in one process keep their own data and caches; closing one leaves the other working', async () => {
    const first = await startServer();
    const theirs = await newProject(other, 'Theirs');
    try {
      const mine = await newProject(first, 'Mine');
      await addTasks(first, mine, ['Only here']);
      await addTasks(other, theirs, ['Only there']);
      expect((await allTasks(first, mine)).map((t) => t.text)).toEqual(['Only here']);
      expect((await allTasks(other, theirs)).map((t) => t.text)).toEqual(['Only there']);
    } finally {
      await first.close();
    }
    await addTasks(other, theirs, ['Still working']);
    expect((await allTasks(other, theirs)).map((t) => t.text)).toEqual(['Only there', 'Still working']);
  });
});
