'use strict';
// Automation runs per second: inbound webhook → create task → HTTP Request to a loopback
// receiver → branch on the response, with 10 concurrent callers. Each caller POSTs to the
// automation's inbound URL and sends its next request only once its run has finished (like n8n
// answering after the last node), so throughput and latency are measured on the same closed loop.
// Reported: finished runs per second, intake-to-finished latency p50/p99 (from sending the
// inbound request to the run's completion), the same latency with one caller, and the ratio to
// the n8n figure of the issue (n8n 1.123.81 on this machine: about 10 runs/s, p50 about 0.9 s with
// 10 callers).
//
// Taskspace runs in this process (built from server/dist: `npx tsc -b server` first; it needs the
// engine built too: `npx tsc -b engine`), the receiver in a child process (this file with
// --receiver). BENCH_SECONDS (default 5) sets the measured duration, after a 1 s warm-up.
//
// Standalone: `node bench/automations.js`. As a module: `run()` resolves the result object.
const { fork } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { request, Agent } = require('undici');

const ROOT = path.resolve(__dirname, '..');
const dist = (p) => require(path.join(ROOT, 'server/dist', p));
const CALLERS = 10;
const N8N_RUNS_PER_SECOND = 10;
const N8N_P50_MS = 900;

// ---- receiver child -------------------------------------------------------------------------
function receiverMain() {
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      n++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, n, task: body.task }));
    });
  });
  server.keepAliveTimeout = 10000;
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
}

function startReceiver() {
  const child = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ url: m.url, stop: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
}

// ---- measurement ----------------------------------------------------------------------------
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function json(dispatcher, base, method, urlPath, token, body) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(base + urlPath, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${urlPath} -> ${res.statusCode} ${text}`);
  return JSON.parse(text);
}

/** Closed-loop callers for `ms`; returns finished runs and their latencies (ms). */
async function drive({ dispatcher, base, path: hookPath, callers, ms, waitRun }) {
  const latencies = [];
  let failed = 0;
  const until = Date.now() + ms;
  let seq = 0;
  const caller = async () => {
    while (Date.now() < until) {
      const started = process.hrtime.bigint();
      const { requestId } = await json(dispatcher, base, 'POST', hookPath, undefined, { title: `Invoice ${++seq}`, amount: seq % 1000 });
      const run = await waitRun(requestId);
      if (run.status !== 'completed') failed++;
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: callers }, caller));
  const seconds = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { runs: latencies.length, failed, seconds, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function run() {
  const receiver = await startReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-automations-'));
  const { buildApp } = dist('app.js');
  const { loadConfig } = dist('config.js');
  const token = 'tsk_bench_owner_token';
  const config = loadConfig({
    ...process.env,
    TASKSPACE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: token,
    TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
    TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000000',
  });
  const built = await buildApp({ config });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${built.app.server.address().port}`;
  const dispatcher = new Agent({ connections: CALLERS * 2, keepAliveTimeout: 10000 });
  try {
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

    const workspaceId = (await json(dispatcher, base, 'GET', '/api/v1/workspaces', token)).items[0].id;
    const projectId = (await json(dispatcher, base, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, token, { contentType: 'text/markdown', content: '# Bench' })).item.id;
    const automation = (
      await json(dispatcher, base, 'POST', '/api/v1/automations', token, {
        workspaceId,
        name: 'Bench: webhook → task → HTTP → branch',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'create', type: 'task.create', projectId, text: '{{ trigger.title }}' },
          {
            id: 'notify',
            type: 'http.request',
            method: 'POST',
            url: `${receiver.url}/tickets`,
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
    const hookPath = new URL(automation.webhook.url).pathname;
    const seconds = Number(process.env.BENCH_SECONDS || 5);

    await drive({ dispatcher, base, path: hookPath, callers: CALLERS, ms: 1000, waitRun }); // warm-up
    const single = await drive({ dispatcher, base, path: hookPath, callers: 1, ms: Math.min(2000, seconds * 1000), waitRun });
    const loaded = await drive({ dispatcher, base, path: hookPath, callers: CALLERS, ms: seconds * 1000, waitRun });
    if (loaded.failed + single.failed > 0) throw new Error(`${loaded.failed + single.failed} runs did not complete`);

    const result = {
      runsPerSecond: loaded.perSecond,
      p50Ms: loaded.p50,
      p99Ms: loaded.p99,
      singleCallerP50Ms: single.p50,
      runs: loaded.runs,
      ratioToN8n: loaded.perSecond / N8N_RUNS_PER_SECOND,
    };
    const n8nInstalled = fs.existsSync(path.join(ROOT, 'node_modules', 'n8n', 'package.json'));
    console.log(`automation runs (webhook → create task → HTTP Request → branch), ${CALLERS} concurrent callers, ${loaded.seconds.toFixed(1)} s:`);
    console.log(`  ${result.runsPerSecond.toFixed(0).padStart(7)} runs/s   intake→finished p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms`);
    console.log(`  one caller: intake→finished p50 ${result.singleCallerP50Ms.toFixed(1)} ms`);
    console.log(
      `  ratio to n8n 1.123.81 (issue figure: ${N8N_RUNS_PER_SECOND} runs/s, p50 ${N8N_P50_MS} ms): ${result.ratioToN8n.toFixed(1)}x throughput, ` +
        `${(N8N_P50_MS / result.p50Ms).toFixed(1)}x lower p50` +
        (n8nInstalled ? '' : ' (n8n is not installed here; the figure is the issue\'s measurement)'),
    );
    return result;
  } finally {
    await dispatcher.close();
    await built.app.close();
    receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };

if (require.main === module) {
  if (process.argv.includes('--receiver')) receiverMain();
  else
    run().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
}
