import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
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
    expect(Object.keys(pkg.scripts ?? {})).toEqual(['prepublishOnly']);
    // Filled from the publisher's environment at release, never invented.
    expect(pkg.author).toEqual({ name: 'Taskspace contributors' });
    for (const field of ['repository', 'homepage', 'bugs']) expect(pkg).not.toHaveProperty(field);
    // n8n's scanner finds the package to lint by name in the repository: the root must not carry it.
    expect(rootPkg.name).not.toBe(pkg.name);
    expect(rootPkg.private).toBe(true);
    // `n8n-node build` at the root reads the root's n8n section.
    expect(rootPkg.n8n).toEqual(pkg.n8n);
  });

  test('`n8n-node lint` passes on the nodes and credentials with zero problems (only the pending author email is set aside)', () => {
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
    expect(out).toContain('valid-author is set aside: the author has no email yet');
  }, 120_000);

  test('npm pack holds only dist/, package.json, README and LICENSE, and passes the community lint', () => {
    const out = execFileSync('npm', ['run', '--silent', 'pack:check'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('pack check passed');
    const files = out
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/nodes/Task/TaskspaceTask.node.js']));
    expect(files.filter((f) => !/^(package\.json|README\.md|LICENSE|dist\/.+)$/.test(f))).toEqual([]);
  }, 120_000);
});
