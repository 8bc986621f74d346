import { request } from 'undici';
import { dbOf } from '../helpers/db';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runWithStatus, runsOf, waitFor } from './helpers';

const MiB = 1024 * 1024;

/**
 * The code sandbox's limits hold under attack (issue 35; docs/automations.md "Code"): memory is
 * bounded and given back, a crash of QuickJS does not poison the next step, one workspace cannot
 * take the whole pool, and code cannot step out of the function it runs in. Driven through the
 * server's API; the server runs in this process, so its resident memory is this process's.
 */
describe('code step limits', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let otherWorkspace: string;
  beforeAll(async () => {
    // A short queue, so that the flood below also meets its bound.
    server = await automationServer({ TASKSPACE_CODE_QUEUE_PER_WORKSPACE: '3' });
    api = client(server, server.token);
    const made = await api.post('/api/v1/workspaces', { name: 'Neighbour' });
    expect(made.status).toBe(200);
    otherWorkspace = made.body.item.id;
  });
  afterAll(() => server.close());

  /** Creates an automation in `workspaceId` with these actions; resolves a function that test-runs it and returns the run. */
  async function codeAutomation(actions: Record<string, unknown>[], workspaceId = server.workspaceId) {
    const automation = await createAutomation(api, workspaceId, { name: 'Code', trigger: { type: 'webhook' }, actions });
    return async () => {
      const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} });
      expect(res.status).toBe(200);
      return res.body.item;
    };
  }

  /** Creates an automation in `workspaceId` and test-runs it; returns the run. */
  async function runCode(actions: Record<string, unknown>[], workspaceId = server.workspaceId) {
    return (await codeAutomation(actions, workspaceId))();
  }

  /** Resolves what `work` resolves and the highest resident memory of this process seen while it ran, in bytes. */
  async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const value = await work();
      return { value, peak: Math.max(peak, process.memoryUsage().rss) };
    } finally {
      clearInterval(sampler);
    }
  }

  test('memoryMb bounds typed arrays, strings and plain arrays, and the memory is given back after the step', async () => {
    // Both workers started: the baseline holds their fresh memory.
    await Promise.all([
      runCode([{ id: 'warm', type: 'code', code: 'return 1' }]),
      runCode([{ id: 'warm', type: 'code', code: 'return 1' }], otherWorkspace),
    ]);
    const baseline = process.memoryUsage().rss;
    const bombs = {
      typedArrays: 'a.push(new Float64Array(1e5))',
      strings: 'a.push("x".repeat(1e5) + a.length)',
      plainArrays: 'a.push(new Array(1e4).fill(a.length))',
    };
    for (const [what, push] of Object.entries(bombs)) {
      const { value: run, peak } = await peakRss(() =>
        runCode([{ id: 'bomb', type: 'code', memoryMb: 8, timeoutMs: 20_000, code: `const a = []; for (;;) ${push};` }]),
      );
      expect([what, run.status, run.error?.code]).toEqual([what, 'failed', 'CODE_MEMORY']);
      // 8 MiB for the code, plus a fixed overhead: the worker's free heap (at most 32 MiB) and this process's own noise.
      const grewMiB = Math.round((peak - baseline) / MiB);
      expect({ what, grewMiB, bounded: grewMiB < 8 + 64 }).toEqual({ what, grewMiB, bounded: true });
    }
    // The largest limit, used up: the worker's memory grows by about 128 MiB, and is given back once the step ended.
    const full = await runCode([
      {
        id: 'full',
        type: 'code',
        memoryMb: 128,
        timeoutMs: 20_000,
        code: 'const a = []; try { for (;;) a.push(new Float64Array(1e5)); } catch (e) { return { arrays: a.length, error: String(e) }; }',
      },
    ]);
    expect(full.status).toBe('completed');
    expect(full.steps[0].output.error).toBe('InternalError: out of memory');
    expect((full.steps[0].output.arrays * 8e5) / MiB).toBeGreaterThan(100);
    expect((full.steps[0].output.arrays * 8e5) / MiB).toBeLessThan(128 + 32);
    await waitFor(
      () => process.memoryUsage().rss - baseline < 64 * MiB,
      () => `resident memory back near its baseline (${Math.round((process.memoryUsage().rss - baseline) / MiB)} MiB above)`,
      10_000,
    );
    expect((await runCode([{ id: 'after', type: 'code', code: 'return 42' }])).steps[0].output).toBe(42);
  });

  test('a crash of QuickJS does not poison the next step: it runs healthy within a second, in any workspace', async () => {
    const crash = await runCode([
      { id: 'crash', type: 'code', timeoutMs: 2000, code: 'const f = () => Promise.resolve().then(f); f(); return "returned"' },
    ]);
    expect(['completed', 'failed']).toContain(crash.status);
    // One step in each workspace at once: both workers serve, the crashed one's replacement among them.
    const next = await Promise.all(
      [otherWorkspace, server.workspaceId].map((workspaceId) =>
        codeAutomation([{ id: 'next', type: 'code', code: 'return "healthy"' }], workspaceId),
      ),
    );
    const timed = await Promise.all(
      next.map(async (run) => {
        const started = Date.now();
        const item = await run();
        return { status: item.status, output: item.steps[0].output, fast: Date.now() - started < 1000 };
      }),
    );
    expect(timed).toEqual([
      { status: 'completed', output: 'healthy', fast: true },
      { status: 'completed', output: 'healthy', fast: true },
    ]);
    const deep = await codeAutomation([{ id: 'deep', type: 'code', code: 'const f = (n) => f(n + 1) + 1; return f(0);' }]);
    const started = Date.now();
    const overflow = await deep();
    expect(overflow.error).toMatchObject({ code: 'CODE_MEMORY', message: 'the code overflowed its stack' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('a workspace flooding the pool with runaway loops does not delay another workspace beyond its own time limit', async () => {
    const flood = await createAutomation(api, server.workspaceId, {
      name: 'Spins',
      trigger: { type: 'webhook' },
      actions: [{ id: 'spin', type: 'code', timeoutMs: 10_000, code: 'for (;;) {}' }],
    });
    for (let i = 0; i < 5; i++) {
      const sent = await request(flood.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(sent.statusCode).toBeLessThan(300);
      await sent.body.dump();
    }
    // One flood step runs, three wait for a worker (the queue's bound), and the fifth is refused at once with the transient CODE_BUSY.
    const flooding = await waitFor(async () => {
      const runs = await runsOf(api, flood.id);
      if (runs.length < 5) return false;
      const full = await Promise.all(runs.map(async (r) => (await api.get(`/api/v1/automations/${flood.id}/runs/${r.id}`)).body.item));
      const steps = full.map((r) => r.steps[0]);
      const atStep = steps.filter((step) => step?.status === 'running').length;
      const busy = steps.filter((step) => step?.error?.code === 'CODE_BUSY' && ['retrying', 'failed'].includes(step.status)).length;
      return atStep === 4 && busy === 1 && full;
    }, 'four flood runs at their code step and one refused');
    const quick = await runCode([{ id: 'quick', type: 'code', code: 'return 1' }], otherWorkspace);
    expect([quick.status, quick.steps[0].output]).toEqual(['completed', 1]);
    expect(quick.steps[0].durationMs).toBeLessThan(1000);
    // Cancelling the flood ends its loops: the workspace's next code step gets a worker at once.
    const spinning = flooding.filter((run) => run.steps[0].status === 'running');
    for (const run of flooding) await api.post(`/api/v1/automations/${flood.id}/runs/${run.id}/cancel`, {});
    for (const run of spinning) await runWithStatus(api, flood.id, run.id, 'cancelled');
    const after = await runCode([{ id: 'after', type: 'code', code: 'return 2' }]);
    expect([after.status, after.steps[0].output]).toEqual(['completed', 2]);
    expect(after.steps[0].durationMs).toBeLessThan(1000);
  });

  test('code that closes the function it runs in is refused when saved, and fails as a code error when run', async () => {
    const escape = '}); (function () { return { then() { return "not json"; } };';
    const refused = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Escape',
      trigger: { type: 'webhook' },
      actions: [{ id: 'out', type: 'code', code: escape }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual({ field: 'actions[0].code', reason: 'invalid_code' });
    expect(refused.body.error.message).toMatch(/closes the function/);
    // Saved before the check existed: the stored definition carries it.
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Escape',
      trigger: { type: 'webhook' },
      actions: [{ id: 'out', type: 'code', code: 'return 1' }],
    });
    const db = dbOf(server);
    for (const table of ['automations', 'automation_versions']) {
      const column = table === 'automations' ? 'id' : 'automation_id';
      const stored = JSON.parse((await db.value<string>(`SELECT definition_json FROM ${table} WHERE ${column} = ?`, automation.id))!);
      stored.actions[0].code = escape;
      await db.run(`UPDATE ${table} SET definition_json = ? WHERE ${column} = ?`, JSON.stringify(stored), automation.id);
    }
    const sent = await request(automation.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(sent.statusCode).toBeLessThan(300);
    await sent.body.dump();
    const [run] = await waitFor(async () => {
      const runs = await runsOf(api, automation.id);
      return runs.length === 1 && runs[0].status === 'failed' && runs;
    }, 'the run to fail');
    expect(run.error).toMatchObject({ code: 'CODE_ERROR', stepId: 'out', transient: false });
    expect(run.error.message).toMatch(/closes the function it runs in/);
  });
});
