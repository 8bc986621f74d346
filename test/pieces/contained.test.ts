import path from 'node:path';
import { client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, receiver } from '../automations/helpers';

const PROBE = path.join(__dirname, 'fixtures', 'probe');

/**
 * Piece code runs contained (docs/integrations.md "Running pieces"): a piece added with
 * `taskspace pieces add` (a test piece that misbehaves on purpose) runs in the worker pool; one
 * that hangs is stopped at the step's time limit and one that allocates without bound at the
 * worker's heap limit, while another automation's piece step completes; its `fetch` and
 * `http.get` go through the SSRF guard (the loopback fake is allowed by the development switch,
 * the metadata address never); raw sockets are refused; the store keeps a value per automation.
 */
describe('pieces: contained', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    expect(added.out).toMatch(/^taskspace-probe\ttaskspace-probe@1\.0\.0\t5 actions/);
    expect(runCli(dataDir, 'pieces', 'list').out).toMatch(/taskspace-probe\t.*\tadded/);
    server = await startServer({ dataDir, env: AUTOMATION_ENV });
    api = client(server, server.token);
    rx = await receiver((r) => ({ status: 200, body: { probe: r.headers['x-probe'] ?? null } }));
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  async function testRun(actions: unknown[], payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'Probe', trigger: { type: 'webhook' }, actions });
    return { automation, run: (await api.post(`/api/v1/automations/${automation.id}/test`, { payload })).body.item };
  }

  test('an added piece is in the catalogue; its step gets typed values, its context and a store per automation', async () => {
    const { body } = await api.get('/api/v1/automations/kinds');
    const echo = body.actions.find((k: any) => k.type === 'taskspace-probe.echo');
    expect(echo).toMatchObject({ title: 'Echo', category: 'Probe', piece: { name: 'taskspace-probe', authTypes: [] } });
    expect(echo.summary).toContain('Say **something**.');
    expect(echo.parameters.properties.connectionId).toBeDefined();
    expect(echo.parameters.required).toEqual(['props']);
    expect(echo.parameters.properties.props.properties.mode.enum).toEqual(['a', 'b']);
    expect(echo.parameters.properties.props.properties.help).toBeUndefined();

    const step = {
      id: 'echo',
      type: 'taskspace-probe.echo',
      props: { message: '{{ trigger.m }}', times: '{{ trigger.n }}', loud: 'true' },
    };
    const { automation, run } = await testRun([step], { m: 'hi', n: 3 });
    expect(run.status).toBe('completed');
    expect(run.steps[0].output).toEqual({ message: 'hi', times: 3, loud: true, count: 1, run: run.id, step: 'echo' });
    const again = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { m: 'again', n: 1 } })).body.item;
    expect(again.steps[0].output).toMatchObject({ message: 'again', count: 2 });
    // Another automation has a store of its own.
    expect((await testRun([step], { m: 'x', n: 1 })).run.steps[0].output.count).toBe(1);
    // A value that is not a number is the step's input error.
    const bad = await testRun([{ ...step, props: { message: 'x', times: 'many' } }]);
    expect(bad.run.status).toBe('failed');
    expect(bad.run.steps[0].error).toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('a hanging piece is stopped at the step’s limit and an allocating one at the heap limit; another run completes meanwhile', async () => {
    const started = Date.now();
    const hanging = testRun([{ id: 'hang', type: 'taskspace-probe.hang', timeoutMs: 3000, retry: { maxAttempts: 1 } }]);
    const allocating = testRun([{ id: 'alloc', type: 'taskspace-probe.allocate', timeoutMs: 60000 }]);
    const echo = await testRun([{ id: 'echo', type: 'taskspace-probe.echo', props: { message: 'still here' } }]);
    expect(echo.run.status).toBe('completed');
    expect(echo.run.steps[0].output.message).toBe('still here');
    const hung = (await hanging).run;
    expect(hung.status).toBe('failed');
    expect(hung.steps[0].error.code).toMatch(/STEP_TIMEOUT|ABORTED|PIECE_TIMEOUT/);
    expect(Date.now() - started).toBeLessThan(30000);
    const allocated = (await allocating).run;
    expect(allocated.status).toBe('failed');
    expect(allocated.steps[0].error.code).toBe('PIECE_MEMORY');
    // The pool goes on.
    expect((await testRun([{ id: 'echo', type: 'taskspace-probe.echo', props: { message: 'after' } }])).run.status).toBe('completed');
  }, 90000);

  test('fetch and http.get go through the guard: the allowed fake is reached, the metadata address refused; raw sockets refused', async () => {
    for (const via of ['fetch', 'http']) {
      const ok = (await testRun([{ id: 'get', type: 'taskspace-probe.fetch_url', props: { url: `${rx.url}/hello`, via } }])).run;
      expect([via, ok.status]).toEqual([via, 'completed']);
      expect(ok.steps[0].output).toEqual({ status: 200, body: { probe: via } });
      const refused = (
        await testRun([{ id: 'get', type: 'taskspace-probe.fetch_url', props: { url: 'http://169.254.169.254/latest/meta-data/', via } }])
      ).run;
      expect([via, refused.status]).toEqual([via, 'failed']);
      expect([via, refused.steps[0].error.code, refused.steps[0].error.message]).toEqual([
        via,
        'BLOCKED_TARGET',
        expect.stringContaining('link-local'),
      ]);
    }
    expect(rx.received.map((r) => r.url)).toEqual(['/hello', '/hello']);
    const raw = (await testRun([{ id: 'raw', type: 'taskspace-probe.raw_socket', props: { port: Number(new URL(rx.url).port) } }])).run;
    expect(raw.status).toBe('failed');
    expect(raw.steps[0].error.code).toBe('NOT_SUPPORTED');
  });
});
