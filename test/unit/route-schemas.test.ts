import fs from 'node:fs';
import path from 'node:path';

/**
 * Keeps route schemas declared once, as TypeBox, with handlers typed through Fastify's type
 * provider (issue 23, item 1): no file in server/src hand-types route generics
 * (`app.get<{ Params: ... }>`) nor writes raw JSON-schema object literals (`{ type: 'object', ... }`).
 * Checked area by area: each module under server/src/modules, each other folder of server/src
 * (accounts, auth, http, platform…) and the files at its top.
 */

const SERVER_SRC = path.join(__dirname, '../../server/src');
const MODULES_DIR = path.join(SERVER_SRC, 'modules');

/** A hand-typed route generic: `.get<{`, `.post<{`, `.put<{`, `.patch<{`, `.delete<{`, `.route<{`. */
const ROUTE_GENERIC = /\.(get|post|put|patch|delete|head|options|route)\s*<\s*\{/g;
/** A raw JSON-schema object literal: `{ type: 'object'`. */
const RAW_OBJECT_SCHEMA = /\{\s*type\s*:\s*['"]object['"]/g;

function sourceFiles(dir: string, recurse = true): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return recurse ? sourceFiles(full) : [];
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `file:line: text` for each match of `pattern` in `file`. */
function offences(file: string, pattern: RegExp): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(pattern)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${path.relative(SERVER_SRC, file)}:${line}: ${match[0]}`;
  });
}

const directories = (dir: string) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Each area checked, by name, with its files. */
const areas: [string, string[]][] = [
  ...directories(MODULES_DIR).map((name): [string, string[]] => [`modules/${name}`, sourceFiles(path.join(MODULES_DIR, name))]),
  ...directories(SERVER_SRC)
    .filter((name) => name !== 'modules')
    .map((name): [string, string[]] => [name, sourceFiles(path.join(SERVER_SRC, name))]),
  ['server/src (top files)', sourceFiles(SERVER_SRC, false)],
];

describe('route schemas are TypeBox, handlers typed by the type provider', () => {
  test('every module and every other folder of server/src is checked', () => {
    const names = areas.map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        'modules/agents',
        'modules/automations',
        'modules/tasks',
        'modules/workspaces',
        'accounts',
        'auth',
        'http',
        'platform',
      ]),
    );
    expect(areas.reduce((n, [, files]) => n + files.length, 0)).toBe(sourceFiles(SERVER_SRC).length);
  });

  test.each(areas)('%s has no hand-typed route generic', (_name, files) => {
    // Only files that register routes (they import from fastify): store queries are `q.get<Row>(...)` too.
    const routeFiles = files.filter((file) => /from 'fastify'/.test(fs.readFileSync(file, 'utf8')));
    expect(routeFiles.flatMap((file) => offences(file, ROUTE_GENERIC))).toEqual([]);
  });

  test.each(areas)('%s has no raw JSON-schema object literal', (_name, files) => {
    expect(files.flatMap((file) => offences(file, RAW_OBJECT_SCHEMA))).toEqual([]);
  });

  test('the checks find what they look for', () => {
    expect('app.get<{ Params: { id: string } }>('.match(ROUTE_GENERIC)).toHaveLength(1);
    expect('app.delete <{\n Params'.match(ROUTE_GENERIC)).toHaveLength(1);
    expect("body: { type: 'object', required: ['x'] }".match(RAW_OBJECT_SCHEMA)).toHaveLength(1);
    expect('Type.Object({ type: Type.String() })'.match(RAW_OBJECT_SCHEMA)).toBeNull();
  });
});
