'use strict';
// Fairness of the run queue: how long a one-step run of one automation waits while another
// automation floods the engine with runs that call a slow URL (issue goal: under 100 ms at p50).
// A flood of BENCH_FLOOD (default 60) inbound calls to automation A (HTTP Request to a receiver
// answering after 500 ms), then BENCH_QUICK (default 20) calls to automation B (one `set` step),
// one after another, each timed from sending the inbound call until its run completed. The
// baseline is the same B calls on the idle engine, in the same run.
//
// Taskspace runs in this process (built from server/dist: `npx tsc -b server` first).
// Standalone: `node bench/fairness.js`. As a module: `run()` resolves the result object.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Agent } = require('undici');
const { api, percentile, runIfMain, OWNER_TOKEN, ROOT } = require('./lib');

const dist = (p) => require(path.join(ROOT, 'server/dist', p));
const SLOW_MS = 500;

/** A receiver answering every request after {@link SLOW_MS}. */
async function slowReceiver() {
  const server = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), SLOW_MS);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function run() {
  const flood = Number(process.env.BENCH_FLOOD || 60);
  const quick = Number(process.env.BENCH_QUICK || 20);
  const receiver = await slowReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-fairness-'));
  const { buildApp } = dist('app.js');
  const { loadConfig } = dist('config.js');
  const config = loadConfig({
    TASKSPACE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
    TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
    TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000000',
  });
  const built = await buildApp({ config });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${built.app.server.address().port}`;
  const dispatcher = new Agent({ connections: 20 });
  const json = (method, urlPath, body, token = OWNER_TOKEN) => api(base, method, urlPath, token, body, dispatcher);
  const settled = new Map();
  built.app.automations.onRunSettled((r) => {
    const id = r.trigger && r.trigger.eventId;
    if (!id || (r.status !== 'completed' && r.status !== 'failed')) return;
    const resolve = settled.get(id);
    if (resolve) {
      settled.delete(id);
      resolve(r);
    } else settled.set(id, r);
  });
  const finished = (requestId) => {
    const done = settled.get(requestId);
    if (done && typeof done !== 'function') {
      settled.delete(requestId);
      return Promise.resolve(done);
    }
    return new Promise((resolve) => settled.set(requestId, resolve));
  };
  try {
    const workspaceId = (await json('GET', '/api/v1/workspaces')).items[0].id;
    const create = async (name, actions) => (await json('POST', '/api/v1/automations', { workspaceId, name, trigger: { type: 'webhook' }, actions })).item;
    const slow = await create('Flood', [{ id: 'call', type: 'http.request', method: 'GET', url: `${receiver.url}/slow` }]);
    const fast = await create('Quick', [{ id: 'note', type: 'set', values: { at: '{{ run.createdAt }}' } }]);
    const hook = (automation) => new URL(automation.webhook.url).pathname;
    const quickRuns = async () => {
      const times = [];
      for (let i = 0; i < quick; i++) {
        const started = performance.now();
        const { requestId } = await api(base, 'POST', hook(fast), null, { i }, dispatcher);
        await finished(requestId);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    const idle = await quickRuns();
    const flooding = [];
    for (let i = 0; i < flood; i++) flooding.push((await api(base, 'POST', hook(slow), null, { i }, dispatcher)).requestId);
    const busy = await quickRuns();
    await Promise.all(flooding.map(finished));
    const out = { name: 'fairness', flood, quick, idleP50Ms: percentile(idle, 50), busyP50Ms: percentile(busy, 50), busyP99Ms: percentile(busy, 99) };
    console.log(`one-step run, idle engine                    p50 ${out.idleP50Ms.toFixed(1)} ms (baseline)`);
    console.log(
      `one-step run behind a flood of ${flood} slow runs   p50 ${out.busyP50Ms.toFixed(1)} ms, p99 ${out.busyP99Ms.toFixed(1)} ms` +
        `   ${(out.busyP50Ms / out.idleP50Ms).toFixed(1)}x the baseline, goal p50 < 100 ms${out.busyP50Ms >= 100 ? ' (MISSED)' : ''}`,
    );
    return out;
  } finally {
    await dispatcher.close();
    await built.app.close();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };
runIfMain(module, run);
