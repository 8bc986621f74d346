import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { client, startServer, tempDataDir, type TestServer } from '../helpers/server';

const ROOT = path.resolve(__dirname, '../..');
const README = path.join(ROOT, 'README.md');

/** The README's tour: every ```sh block preceded by the marker line `<!-- tour -->`, in document order. */
function tourBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^<!-- tour -->\n```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Runs `script` with bash (asynchronously: the server under test shares this event loop); resolves with its exit code and output. */
function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('README tour', () => {
  let server: TestServer;
  let stateFile: string;
  const blocks = tourBlocks(fs.readFileSync(README, 'utf8'));

  beforeAll(async () => {
    server = await startServer();
    stateFile = path.join(tempDataDir(), 'tour.env');
    fs.writeFileSync(stateFile, '');
  });
  afterAll(() => server.close());

  test('the README has the tour: blocks marked <!-- tour --> and a setup block naming BASE and TOKEN', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const markdown = fs.readFileSync(README, 'utf8');
    expect(markdown).toMatch(/```sh\nBASE=http:\/\/127\.0\.0\.1:8787\nTOKEN=tsk_\.\.\./);
  });

  // Blocks run in order, each in its own bash with -euo pipefail; variables they set carry over
  // to the next through a state file (set -a exports every assignment, export -p saves them).
  test.each(blocks.map((block, i) => [i + 1, block] as const))(
    'tour block %i runs as written and exits 0',
    async (_i, block) => {
      const script = `set -euo pipefail\nset -a\n. "$TOUR_STATE"\n${block}\nexport -p > "$TOUR_STATE"\n`;
      const res = await bash(script, { ...process.env, TOUR_STATE: stateFile, BASE: server.url, TOKEN: server.token });
      if (res.code !== 0) throw new Error(`tour block exited ${res.code}:\n${block}\n--- output ---\n${res.out}`);
    },
    60_000,
  );

  test('afterwards the project has its tasks, the webhook is registered and the automation exists and ran', async () => {
    const api = client(server, server.token);
    const projects = (await api.get(`/api/v1/folders/${server.workspaceId}/projects`)).body.items as { id: string; name: string }[];
    const project = projects.find((p) => p.name === 'Launch plan');
    expect(project).toBeDefined();
    const tasks = (await api.get(`/api/v1/projects/${project!.id}/tasks`)).body.items.map((t: { text: string }) => t.text);
    expect(tasks).toEqual(['Write the announcement', 'Book the venue', 'Send the invitations', 'Order the catering', 'Call back Ann']);
    const hooks = (await api.get('/api/v2/webhooks')).body.items as { url: string; events: string[] }[];
    expect(hooks.map((h) => h.url)).toContain('https://example.com/taskspace-hook');
    const automations = (await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items as {
      id: string;
      name: string;
      enabled: boolean;
    }[];
    const intake = automations.find((a) => a.name === 'Intake');
    expect(intake?.enabled).toBe(true);
    const runs = (await api.get(`/api/v1/automations/${intake!.id}/runs`)).body.items as { status: string }[];
    expect(runs.map((r) => r.status)).toEqual(['completed']);
  });
});

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

describe('documentation links', () => {
  const files = [
    'README.md',
    ...fs
      .readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  test.each(files)('every relative link in %s resolves to a file (and heading) inside the repository', (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const broken: string[] = [];
    for (const m of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: ...
      const [target, anchor] = link.split('#') as [string, string | undefined];
      const resolved = target ? path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(target)) : path.join(ROOT, file);
      if (!resolved.startsWith(ROOT + path.sep)) {
        broken.push(`${link}: outside the repository`);
        continue;
      }
      if (!fs.existsSync(resolved)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsIn(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${link}: no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
