import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { NODE_TYPES } from './harness';

const root = path.resolve(__dirname, '../..');
/** The published manifest; the root package.json is the (private) npm workspace of the service. */
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'packages/n8n-nodes-taskspace/package.json'), 'utf8'));
const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('the community package', () => {
  test('declares every node and credential it ships, with codex files and light/dark icons', () => {
    const nodeSources = fs
      .readdirSync(path.join(root, 'nodes'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.node.ts'))
      .map((f) => `dist/nodes/${f.replace(/\.ts$/, '.js')}`)
      .sort();
    expect([...pkg.n8n.nodes].sort()).toEqual(nodeSources);
    expect(pkg.n8n.credentials).toEqual([
      'dist/credentials/TaskspaceApi.credentials.js',
      'dist/credentials/TaskspaceOAuth2Api.credentials.js',
    ]);
    for (const file of nodeSources) {
      const codex = path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.json'));
      expect(JSON.parse(fs.readFileSync(codex, 'utf8')).node).toMatch(/^n8n-nodes-taskspace\./);
    }
    for (const [type, nodeType] of Object.entries(NODE_TYPES)) {
      const { icon, name, usableAsTool } = nodeType.description;
      expect(type).toBe(`n8n-nodes-taskspace.${name}`);
      const { light, dark } = icon as { light: string; dark: string };
      expect(light).not.toBe(dark);
      for (const file of [light, dark]) expect(fs.existsSync(path.join(root, 'nodes/x', file.replace('file:', '')))).toBe(true);
      if (!name.endsWith('Trigger')) expect(usableAsTool).toBe(true);
    }
    expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.keywords).toContain('n8n-community-node-package');
  });

  test('the published manifest has no workspace fields, no lifecycle scripts and no invented metadata; the root is not it', () => {
    expect(pkg.name).toBe('n8n-nodes-taskspace');
    for (const field of ['workspaces', 'overrides', 'devDependencies', 'private']) expect(pkg).not.toHaveProperty(field);
    // No lifecycle scripts: they would ship in the published manifest, naming files outside the package.
    expect(pkg).not.toHaveProperty('scripts');
    // Filled by the package's owner, in this file only, never invented (docs/n8n-package.md, "Publishing").
    expect(pkg.author).toEqual({ name: 'Taskspace contributors' });
    for (const field of ['repository', 'homepage', 'bugs']) expect(pkg).not.toHaveProperty(field);
    expect(rootPkg.scripts['release:check']).toBe('n8n-node build && node test/n8n-host/package-stage.mjs pack --release');
    // n8n's scanner finds the package to lint by name in the repository: the root must not carry it.
    expect(rootPkg.name).not.toBe(pkg.name);
    expect(rootPkg.private).toBe(true);
    // `n8n-node build` at the root reads the root's n8n section.
    expect(rootPkg.n8n).toEqual(pkg.n8n);
  });

  test('`n8n-node lint` passes on the nodes and credentials with zero problems (only the missing publishing metadata is set aside)', () => {
    const raw = execFileSync('npm', ['run', '--silent', 'lint'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // eslint-disable-next-line no-control-regex -- strips the ANSI colour codes of the lint output
    const out = raw.replace(/\x1b\[[0-9;]*m/g, '');
    // Findings name their file: none may be in the sources.
    expect(out).not.toMatch(/\/(nodes|credentials)\/\S+\.ts/);
    const findings = out.split('\n').filter((l) => /^\s+\d+:\d+\s+(error|warning)\s/.test(l));
    expect(findings.every((l) => /@n8n\/community-nodes\/(valid-author|require-homepage)/.test(l))).toBe(true);
    expect(out).toMatch(/valid-author.* set aside while the publishing metadata is missing: NOT PUBLISHABLE/);
  }, 120_000);

  test('npm pack holds only dist/, package.json, README and LICENSE, passes the community lint, and says it is not publishable yet', () => {
    const out = execFileSync('npm', ['run', '--silent', 'pack:check'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // Exit 0 (CI goes on), but no "passed" while the scanner's rules valid-author and require-homepage fail.
    expect(out).not.toContain('pack check passed');
    expect(out).toMatch(
      /NOT PUBLISHABLE: author\.email is missing \(n8n rule valid-author\); homepage \(an https URL\) is missing \(n8n rule require-homepage\); repository\.url is missing\. The package's owner fills them in packages\/n8n-nodes-taskspace\/package\.json/,
    );
    const files = out
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/nodes/Task/TaskspaceTask.node.js']));
    expect(files.filter((f) => !/^(package\.json|README\.md|LICENSE|dist\/.+)$/.test(f))).toEqual([]);
    // The packed manifest is the committed one: no lifecycle scripts.
    const packed = JSON.parse(fs.readFileSync(path.join(root, '.n8n-host/packed/package/package.json'), 'utf8'));
    expect(packed).not.toHaveProperty('scripts');
    expect(packed.n8n).toEqual(pkg.n8n);
  }, 120_000);

  test('the release check fails without the author email, homepage and repository (before packing anything)', () => {
    const release = spawnSync('node', ['test/n8n-host/package-stage.mjs', 'pack', '--release'], { cwd: root, encoding: 'utf8' });
    expect(release.status).toBe(1);
    expect(release.stderr).toMatch(
      /release check failed: .*NOT PUBLISHABLE: author\.email is missing .*homepage .*repository\.url is missing/,
    );
    expect(release.stdout).not.toContain('set aside');
  }, 120_000);

  test('the publishing metadata is complete with an author email, an https homepage and a repository, and only then', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-'));
    const check = (manifest: object) => {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
      return spawnSync('node', ['test/n8n-host/package-stage.mjs', 'metadata', path.join(dir, 'package.json')], {
        cwd: root,
        encoding: 'utf8',
      });
    };
    const filled = {
      ...pkg,
      author: { name: 'Owner', email: 'owner@example.com' },
      homepage: 'https://example.com/taskspace',
      repository: { type: 'git', url: 'git+https://example.com/owner/taskspace.git' },
    };
    expect(check(filled).status).toBe(0);
    expect(check({ ...filled, author: 'Owner <owner@example.com>' }).status).toBe(0);
    expect(check({ ...filled, author: 'Owner' }).stderr).toMatch(/NOT PUBLISHABLE: author\.email is missing \(n8n rule valid-author\)\./);
    expect(check({ ...filled, homepage: 'http://example.com' }).stderr).toMatch(/NOT PUBLISHABLE: homepage \(an https URL\) is missing/);
    expect(check({ ...filled, repository: undefined }).stderr).toMatch(/NOT PUBLISHABLE: repository\.url is missing\./);
    expect(check(pkg).status).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
