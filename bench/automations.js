'use strict';
// Automation runs per second: inbound webhook → create task → HTTP Request to a loopback
// receiver → branch on the response, with 10 concurrent callers. Each caller POSTs to the
// automation's inbound URL and sends its next request only once its run has finished (like n8n
// answering after the last node), so throughput and latency are measured on the same closed loop.
// Reported: finished runs per second, intake-to-finished latency p50/p99 (from sending the
// inbound request to the run's completion), the same latency with one caller, and the ratio to
// the n8n figure of the issue (n8n 1.123.81 on this machine: about 10 runs/s, p50 about 0.9 s with
// 10 callers). When a real n8n is installed in its cache (`npm run test:n8n` installs it; see test/n8n-host/install-n8n.mjs),
// `bench/n8n.js` then runs the same workflow in it (webhook → HTTP Request → If, answered after
// the last node) with the same callers and measurement, and the ratio of the two is printed too.
// BENCH_N8N=0 skips that part.
//
// Taskspace runs in this process (built from server/dist: `npx tsc -b server` first; it needs the
// engine built too: `npx tsc -b engine`), the receiver in a child process (bench/lib.js). It is
// stopped before n8n starts, so the two never share the CPU. BENCH_SECONDS (default 5) sets the
// measured duration, after a 1 s warm-up.
//
// Standalone: `node bench/automations.js`. As a module: `run()` resolves the result object.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Agent } = require('undici');
const { api, measureRuns, runIfMain, startReceiver, startTaskspace, OWNER_TOKEN, ROOT } = require('./lib');
const n8n = require('./n8n');

const dist = (p) => require(path.join(ROOT, 'server/dist', p));
const CALLERS = 10;
const N8N_RUNS_PER_SECOND = 10;
const N8N_P50_MS = 900;

/**
 * Creates the measured automation (webhook → create task in `projectId` → HTTP Request to the
 * receiver at `receiverUrl` → branch) through `json(method, path, body)`; resolves it as the API
 * answers it.
 */
async function createBenchAutomation(json, workspaceId, projectId, receiverUrl) {
  return (
    await json('POST', '/api/v1/automations', {
      workspaceId,
      name: 'Bench: webhook → task → HTTP → branch',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'create', type: 'task.create', projectId, text: '{{ trigger.title }}' },
        {
          id: 'notify',
          type: 'http.request',
          method: 'POST',
          url: `${receiverUrl}/tickets`,
          body: { type: 'json', value: { task: '{{ steps.create.id }}', title: '{{ trigger.title }}', amount: '{{ trigger.amount }}' } },
        },
        {
          id: 'route',
          type: 'branch',
          conditions: { anyOf: [{ allOf: [{ left: '{{ steps.notify.body.ok }}', operator: 'equals', right: 'true' }, { left: '{{ steps.notify.status }}', operator: 'lt', right: 300 }] }] },
        },
      ],
    })
  ).item;
}

/**
 * Measures Taskspace alone; resolves its result (the servers are stopped when it resolves).
 * `env` adds configuration (bench/stores.js passes `DATABASE_URL` to measure PostgreSQL).
 * `apiProcesses` (PostgreSQL only) starts that many `TASKSPACE_ROLE=api` processes beside the one
 * in this process, which executes the runs; the callers then spread their inbound calls over all.
 */
async function runTaskspace(env = {}, { apiProcesses = 0 } = {}) {
  const receiver = await startReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-automations-'));
  const { buildApp } = dist('app.js');
  const { loadConfig } = dist('config.js');
  const token = OWNER_TOKEN;
  const config = loadConfig({
    ...process.env,
    TASKSPACE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: token,
    TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
    TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000000',
    ...env,
  });
  const built = await buildApp({ config });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${built.app.server.address().port}`;
  const dispatcher = new Agent({ connections: CALLERS * 2, keepAliveTimeout: 10000 });
  const json = (method, urlPath, body, bearer = token) => api(base, method, urlPath, bearer, body, dispatcher);
  const others = [];
  try {
    for (let i = 0; i < apiProcesses; i++) {
      others.push(await startTaskspace({ TASKSPACE_ROLE: 'api', TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000000', ...env }));
    }
    const bases = [base, ...others.map((other) => other.url)];
    const runtime = built.app.automations;
    // requestId -> run (settled) or resolver
    const finished = new Map();
    const waiting = new Map();
    runtime.onRunSettled((r) => {
      const id = r.trigger && r.trigger.eventId;
      if (!id || (r.status !== 'completed' && r.status !== 'failed' && r.status !== 'waiting')) return;
      const resolve = waiting.get(id);
      if (resolve) {
        waiting.delete(id);
        resolve(r);
      } else finished.set(id, r);
    });
    const waitRun = (requestId) => {
      const done = finished.get(requestId);
      if (done) {
        finished.delete(requestId);
        return Promise.resolve(done);
      }
      return new Promise((resolve) => waiting.set(requestId, resolve));
    };

    const workspaceId = (await json('GET', '/api/v1/workspaces')).items[0].id;
    const projectId = (await json('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Bench' })).item.id;
    const automation = await createBenchAutomation(json, workspaceId, projectId, receiver.url);
    const hookPath = new URL(automation.webhook.url).pathname;

    // One run: POST to the inbound URL, then wait for the run it started to settle.
    const once = async (seq) => {
      const to = bases[seq % bases.length];
      const { requestId } = await api(to, 'POST', hookPath, null, { title: `Invoice ${seq}`, amount: seq % 1000 }, dispatcher);
      return (await waitRun(requestId)).status === 'completed';
    };
    const { loaded, single } = await measureRuns({ callers: CALLERS, once });
    return { runsPerSecond: loaded.perSecond, p50Ms: loaded.p50, p99Ms: loaded.p99, singleCallerP50Ms: single.p50, runs: loaded.runs, seconds: loaded.seconds };
  } finally {
    for (const other of others) await other.stop();
    await dispatcher.close();
    await built.app.close();
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run() {
  const ts = await runTaskspace();
  const result = { ...ts, ratioToN8n: ts.runsPerSecond / N8N_RUNS_PER_SECOND };
  console.log(`automation runs (webhook → create task → HTTP Request → branch), ${CALLERS} concurrent callers, ${ts.seconds.toFixed(1)} s:`);
  console.log(`  ${ts.runsPerSecond.toFixed(0).padStart(7)} runs/s   intake→finished p50 ${ts.p50Ms.toFixed(1)} ms, p99 ${ts.p99Ms.toFixed(1)} ms`);
  console.log(`  one caller: intake→finished p50 ${ts.singleCallerP50Ms.toFixed(1)} ms`);
  console.log(
    `  ratio to n8n 1.123.81 (issue figure: ${N8N_RUNS_PER_SECOND} runs/s, p50 ${N8N_P50_MS} ms): ${result.ratioToN8n.toFixed(1)}x throughput, ` +
      `${(N8N_P50_MS / ts.p50Ms).toFixed(1)}x lower p50`,
  );

  if (process.env.BENCH_N8N === '0') {
    console.log('  real n8n comparison skipped (BENCH_N8N=0)');
    return result;
  }
  const measured = await n8n.run();
  if (measured.skipped) return result;
  result.n8n = measured;
  result.ratioToMeasuredN8n = ts.runsPerSecond / measured.runsPerSecond;
  console.log(
    `  ratio to ${measured.name} measured in this run: ${result.ratioToMeasuredN8n.toFixed(1)}x throughput ` +
      `(${ts.runsPerSecond.toFixed(0)} vs ${measured.runsPerSecond.toFixed(1)} runs/s), ` +
      `p50 ${ts.p50Ms.toFixed(1)} ms vs ${measured.p50.toFixed(1)} ms (${(measured.p50 / ts.p50Ms).toFixed(1)}x lower), ` +
      `one caller p50 ${ts.singleCallerP50Ms.toFixed(1)} ms vs ${measured.singleCallerP50.toFixed(1)} ms`,
  );
  return result;
}

module.exports = { run, runTaskspace, createBenchAutomation, CALLERS };

runIfMain(module, run);
