import { request } from 'undici';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runWithStatus, runsOf, waitFor } from './helpers';

/** Code steps (docs/automations.md "Code"): JavaScript in the QuickJS sandbox, with limits, and nothing of the host. */
describe('code steps', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  /** Creates a one-or-more-step automation and test-runs it; returns the run. */
  async function runCode(actions: Record<string, unknown>[], payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'Code', trigger: { type: 'webhook' }, actions });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload });
    expect(res.status).toBe(200);
    return res.body.item;
  }

  test('reshapes a payload from input, trigger and earlier steps; later steps read what it returned', async () => {
    const run = await runCode(
      [
        { id: 'prep', type: 'set', values: { rate: 1.5 } },
        {
          id: 'calc',
          type: 'code',
          input: { lines: '{{ trigger.lines }}' },
          code: [
            'const total = input.lines.reduce((sum, l) => sum + l.qty * l.price, 0);',
            'const csv = "name,qty\\n" + input.lines.map((l) => `${l.name},${l.qty}`).join("\\n");',
            'await Promise.resolve();',
            'return { total: total * steps.prep.rate, customer: trigger.customer.toUpperCase(), csv, runId: run.id };',
          ].join('\n'),
        },
        { id: 'after', type: 'set', values: { label: 'Total {{ steps.calc.total }} for {{ steps.calc.customer }}' } },
      ],
      {
        customer: 'ada',
        lines: [
          { name: 'pen', qty: 2, price: 3 },
          { name: 'ink', qty: 1, price: 4 },
        ],
      },
    );
    expect(run.status).toBe('completed');
    const calc = run.steps.find((s: any) => s.id === 'calc');
    expect(calc.output).toEqual({ total: 15, customer: 'ADA', csv: 'name,qty\npen,2\nink,1', runId: run.id });
    expect(calc.input).toMatchObject({
      input: {
        lines: [
          { name: 'pen', qty: 2, price: 3 },
          { name: 'ink', qty: 1, price: 4 },
        ],
      },
      timeoutMs: 1000,
      memoryMb: 32,
    });
    expect(run.steps.find((s: any) => s.id === 'after').output).toEqual({ label: 'Total 15 for ADA' });
    // Returning nothing is null.
    expect((await runCode([{ id: 'nothing', type: 'code', code: 'const x = 1;' }])).steps[0].output).toBeNull();
  });

  test('a syntax error is refused when saved, naming the field and the line', async () => {
    const res = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Broken',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'ok', type: 'set', values: { a: 1 } },
        { id: 'bad', type: 'code', code: 'const a = 1;\nreturn a +;' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'actions[1].code', reason: 'invalid_code' });
    expect(res.body.error.message).toMatch(/actions\[1\]\.code: .*\(line 2\)/);
    const tooSlow = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Limits',
      trigger: { type: 'webhook' },
      actions: [{ id: 'c', type: 'code', code: 'return 1', timeoutMs: 60_000 }],
    });
    expect(tooSlow.status).toBe(400);
    expect(tooSlow.body.error.details.field).toBe('actions[0].timeoutMs');
  });

  test('the host is out of reach: no process, require, fetch or timers', async () => {
    const probe = await runCode([
      {
        id: 'probe',
        type: 'code',
        code: 'return ["process", "require", "fetch", "setTimeout", "XMLHttpRequest", "Buffer", "module", "globalThis.__variables", "std", "os"].map((n) => [n, eval("typeof " + n)]);',
      },
    ]);
    expect(probe.status).toBe('completed');
    expect(Object.fromEntries(probe.steps[0].output)).toEqual({
      process: 'undefined',
      require: 'undefined',
      fetch: 'undefined',
      setTimeout: 'undefined',
      XMLHttpRequest: 'undefined',
      Buffer: 'undefined',
      module: 'undefined',
      'globalThis.__variables': 'undefined',
      std: 'undefined',
      os: 'undefined',
    });
    const signed = await runCode([
      {
        id: 'sig',
        type: 'code',
        input: { body: '{"a":1}' },
        code: 'return { sha: crypto.hash("sha256", input.body), mac: crypto.hmac("sha256", "key", input.body, "base64"), b64: btoa("héllo"), back: atob(btoa("héllo")) }',
      },
    ]);
    const { createHash, createHmac } = await import('node:crypto');
    expect(signed.steps[0].output).toEqual({
      sha: createHash('sha256').update('{"a":1}').digest('hex'),
      mac: createHmac('sha256', 'key').update('{"a":1}').digest('base64'),
      b64: Buffer.from('héllo').toString('base64'),
      back: 'héllo',
    });
    const reach = await runCode([{ id: 'reach', type: 'code', code: 'console.log("trying"); return process.env;' }]);
    expect(reach).toMatchObject({ status: 'failed', error: { code: 'CODE_ERROR', stepId: 'reach' } });
    expect(reach.error.message).toMatch(/ReferenceError: .*process/);
    expect(reach.steps[0].error.details).toEqual({ logs: ['trying'] });
    const thrown = await runCode([{ id: 'boom', type: 'code', code: 'throw new Error("bad row 7")' }]);
    expect(thrown.error).toMatchObject({ code: 'CODE_ERROR', message: 'Error: bad row 7 (line 1)', transient: false });
    const notJson = await runCode([{ id: 'fn', type: 'code', code: 'return () => 1' }]);
    expect(notJson.error).toMatchObject({ code: 'CODE_ERROR', message: 'TypeError: the returned value is not JSON' });
  });

  test('memory bombs fail their step cleanly, and the sandbox serves the next step', async () => {
    const run = await runCode([
      {
        id: 'bomb',
        type: 'code',
        memoryMb: 8,
        timeoutMs: 20_000,
        code: 'const a = []; for (let i = 0; ; i++) a.push({ i, text: "row " + i });',
      },
    ]);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'CODE_MEMORY', stepId: 'bomb', transient: false } });
    expect(run.error.message).toBe('the code ran out of memory');
    // Huge strings are built inside QuickJS without checking its deadline: the watchdog ends that worker.
    const strings = await runCode([
      { id: 'strings', type: 'code', memoryMb: 8, timeoutMs: 200, code: 'const a = []; for (;;) a.push("x".repeat(1000000) + a.length);' },
    ]);
    expect(strings).toMatchObject({ status: 'failed', error: { stepId: 'strings', transient: false } });
    expect(['CODE_MEMORY', 'CODE_TIMEOUT']).toContain(strings.error.code);
    expect((await runCode([{ id: 'after', type: 'code', code: 'return 42' }])).steps[0].output).toBe(42);
  });

  test('a runaway loop fails at its time limit while the service keeps answering', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Spins',
      trigger: { type: 'webhook' },
      actions: [{ id: 'spin', type: 'code', timeoutMs: 3000, code: 'for (;;) {}' }],
    });
    const sent = await request(automation.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(sent.statusCode).toBeLessThan(300);
    await sent.body.dump();
    const [started] = await waitFor(async () => {
      const runs = await runsOf(api, automation.id);
      return runs.length === 1 && runs[0].status === 'running' && runs;
    }, 'the run to be running');
    // The loop runs in a worker thread: the service answers while the step is still running.
    expect((await api.get('/healthz')).status).toBe(200);
    expect((await api.get(`/api/v1/automations/${automation.id}/runs/${started.id}`)).body.item.status).toBe('running');
    const failed = await runWithStatus(api, automation.id, started.id, 'failed', 15000);
    expect(failed.error).toMatchObject({ code: 'CODE_TIMEOUT', stepId: 'spin', transient: false });
    expect((await runCode([{ id: 'fine', type: 'code', code: 'return "still fine"' }])).steps[0].output).toBe('still fine');
  });

  test('a secret handed in as input is masked in what the step records', async () => {
    await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/SIGNING_KEY`, { value: 'k3y-for-code-steps' });
    const run = await runCode([
      {
        id: 'sign',
        type: 'code',
        input: { key: '{{ secrets.SIGNING_KEY }}' },
        code: 'return { echoed: input.key, length: input.key.length, b64: btoa(input.key) }',
      },
    ]);
    expect(run.status).toBe('completed');
    expect(run.steps[0].input.input).toEqual({ key: '[secret SIGNING_KEY]' });
    expect(run.steps[0].output.echoed).toBe('[secret SIGNING_KEY]');
    expect(run.steps[0].output.length).toBe(18);
    expect(JSON.stringify(run)).not.toContain('k3y-for-code-steps');
  });
});
