import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The import-loop rules of `npm run lint:deps` (issue 36; docs/architecture.md "Layers"): the
 * folder rule (`scripts/folder-cycles.mjs`) fails on a loop between `server/src/modules/*`
 * folders, between top-level `server/src` folders (and between `engine/src` folders once the
 * engine is layered), type imports included, and passes on this tree; the file rule
 * (`.dependency-cruiser.cjs` `no-circular-server`) fails on a loop of server files through type
 * imports alone, and on a run-time loop of engine files. Each case cruises a small tree written to a fresh temporary directory.
 */
const ROOT = path.join(__dirname, '../..');
const FOLDER_RULE = path.join(ROOT, 'scripts/folder-cycles.mjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

jest.setTimeout(180_000);

const trees: string[] = [];
afterAll(() => {
  for (const dir of trees) fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (path → source) into a new temporary directory and returns it. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-loops-'));
  trees.push(dir);
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), source);
  }
  return dir;
}

/** Runs the folder rule over `root`: its exit status and what it printed. */
function folderRule(root: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [FOLDER_RULE, '--root', root], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('the folder rule', () => {
  test('fails on two module folders importing each other, naming both and the imports', () => {
    const root = tree({
      'server/src/modules/alpha/service.ts': "import { beta } from '../beta/service';\nexport const alpha = () => beta();\n",
      'server/src/modules/beta/service.ts': "import { gamma } from '../alpha/helpers';\nexport const beta = () => gamma;\n",
      'server/src/modules/alpha/helpers.ts': 'export const gamma = 1;\n',
    });
    const { status, out } = folderRule(root);
    expect(status).toBe(1);
    expect(out).toContain('server/src/modules/alpha ⇄ server/src/modules/beta');
    expect(out).toContain('server/src/modules/beta/service.ts -> server/src/modules/alpha/helpers.ts');
  });

  test('counts a type-only import, and an import from a module subfolder as its module folder', () => {
    const root = tree({
      'server/src/modules/alpha/forms/page.ts': "import type { Beta } from '../../beta/types';\nexport const page = (b: Beta) => b;\n",
      'server/src/modules/beta/types.ts': "import { limit } from '../alpha/limits';\nexport type Beta = { n: typeof limit };\n",
      'server/src/modules/alpha/limits.ts': 'export const limit = 3;\n',
    });
    const { status, out } = folderRule(root);
    expect(status).toBe(1);
    expect(out).toContain('server/src/modules/alpha ⇄ server/src/modules/beta');
    expect(out).toContain('server/src/modules/alpha/forms/page.ts -> server/src/modules/beta/types.ts (type)');
  });

  test('fails on a loop between top-level server folders through a module', () => {
    const root = tree({
      'server/src/http/errors.ts': "import { hook } from '../auth/hook';\nexport const errors = hook;\n",
      'server/src/auth/hook.ts': "import { mail } from '../modules/mail/outbox';\nexport const hook = mail;\n",
      'server/src/modules/mail/outbox.ts': "import { page } from '../../http/page';\nexport const mail = page;\n",
      'server/src/http/page.ts': 'export const page = 1;\n',
    });
    const { status, out } = folderRule(root);
    expect(status).toBe(1);
    expect(out).toContain('server/src/auth ⇄ server/src/http ⇄ server/src/modules/mail');
  });

  test('passes a layered tree, where the wiring at the root imports everything', () => {
    const root = tree({
      'server/src/app.ts':
        "import { alpha } from './modules/alpha/service';\nimport { page } from './http/page';\nexport const app = [alpha, page];\n",
      'server/src/modules/alpha/service.ts':
        "import { beta } from '../beta/service';\nimport type { Page } from '../../http/page';\nexport const alpha = (p: Page) => [beta, p];\n",
      'server/src/modules/beta/service.ts': "import { page } from '../../http/page';\nexport const beta = page;\n",
      'server/src/http/page.ts': "import { errors } from '../errors';\nexport const page = errors;\nexport type Page = typeof page;\n",
      'server/src/errors.ts': "import { app } from './app';\nexport const errors = () => app;\n",
    });
    const { status, out } = folderRule(root);
    expect(out).toContain('no folder loops');
    expect(status).toBe(0);
  });

  test("passes this repository's server and engine", () => {
    const { status, out } = folderRule(ROOT);
    expect(out).toMatch(/no folder loops \(\d+ folders\)/);
    expect(status).toBe(0);
  });
});

describe('the file rule', () => {
  /** Runs dependency-cruiser with the repository's rules over `dirs` of `root`. */
  function fileRule(root: string, dirs: string[]): { status: number | null; out: string } {
    fs.copyFileSync(path.join(ROOT, 'tsconfig.base.json'), path.join(root, 'tsconfig.base.json'));
    const run = spawnSync(process.execPath, [DEPCRUISE, ...dirs, '--config', path.join(ROOT, '.dependency-cruiser.cjs')], {
      cwd: root,
      encoding: 'utf8',
    });
    return { status: run.status, out: run.stdout + run.stderr };
  }

  const typeLoop = (dir: string) => ({
    [`${dir}/a.ts`]: "import type { B } from './b';\nexport type A = { b?: B };\nexport const a = 1;\n",
    [`${dir}/b.ts`]: "import type { A } from './a';\nexport type B = { a?: A };\n",
  });

  test('fails on server files importing each other through type imports alone', () => {
    const { status, out } = fileRule(tree(typeLoop('server/src/modules/alpha')), ['server/src']);
    expect(out).toContain('no-circular-server');
    expect(status).not.toBe(0);
  });

  test('fails on engine files importing each other at run time', () => {
    const root = tree({
      'engine/src/kinds/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'engine/src/kinds/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    const { status, out } = fileRule(root, ['engine/src']);
    expect(out).toContain('engine/src/kinds/a.ts');
    expect(status).not.toBe(0);
  });
});
