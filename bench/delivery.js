'use strict';
// Webhook delivery throughput: events per second from commit to a loopback receiver's 2xx, signed,
// beside a baseline of the same signed POSTs sent straight from this process, with as many in
// flight as the server allows to one target (TASKSPACE_WEBHOOKS_CONCURRENCY_PER_TARGET, default 8).
//
// Taskspace runs in this process (built from server/dist: `npx tsc -b server` first) and the
// receiver in a child process (this file with --receiver), which checks every signature before
// answering 204. BENCH_EVENTS (default 4000) `project.created` events are committed one
// transaction each, in bursts of 20 with the event loop free in between (as write requests
// would), each burst followed by the in-process wake-up that API writes give the dispatcher.
// Reported: events/s from the first commit to the last 2xx, the baseline, their ratio, and the
// commit-to-receipt latency p50/p99 (ms).
//
// Standalone: `node bench/delivery.js`. As a module: `run()` resolves the result object.
const { fork } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { request, Agent } = require('undici');

const ROOT = path.resolve(__dirname, '..');
const dist = (p) => require(path.join(ROOT, 'server/dist', p));

// ---- receiver child -------------------------------------------------------------------------
function receiverMain() {
  const { verifySignature } = dist('modules/webhooks/signature.js');
  let secret = '';
  let expected = Infinity;
  let seen = new Set();
  let latencies = [];
  let bad = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifySignature(raw, req.headers['x-service-signature'], secret)) {
        bad++;
        res.writeHead(401).end();
        return;
      }
      res.writeHead(204).end();
      const delivery = req.headers['x-service-delivery'];
      if (seen.has(delivery)) return;
      seen.add(delivery);
      latencies.push(Date.now() - Date.parse(JSON.parse(raw.toString('utf8')).timestamp));
      if (seen.size === expected) process.send({ done: true, latencies, bad });
    });
  });
  process.on('message', (m) => {
    if (m.secret !== undefined) secret = m.secret;
    if (m.reset) {
      seen = new Set();
      latencies = [];
      bad = 0;
      expected = m.expected ?? Infinity;
    }
    process.send({ ack: true });
  });
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
}

// ---- bench ----------------------------------------------------------------------------------
function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function startReceiverChild() {
  const child = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (pred) => new Promise((resolve) => {
    const on = (m) => {
      if (pred(m)) {
        child.off('message', on);
        resolve(m);
      }
    };
    child.on('message', on);
  });
  return next((m) => m.url).then(({ url }) => ({
    url,
    send: (msg) => { const ack = next((m) => m.ack); child.send(msg); return ack; },
    done: () => next((m) => m.done),
    stop: () => new Promise((r) => { child.once('exit', r); child.kill(); }),
  }));
}

/** Sends `n` signed POSTs straight to `url` with `concurrency` in flight; returns the per-second rate. */
async function baseline(url, n, concurrency, secret, signPayload) {
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const payload = { projectId: 'p', projectTitle: 'Bench', projectLink: 'http://127.0.0.1/api/v1/projects/p', folderId: 'f', createdBy: 'owner' };
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const body = JSON.stringify({ id: `b${i}`, type: 'project.created', workspaceId: 'w', timestamp: new Date().toISOString(), payload });
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        body,
        headers: { 'content-type': 'application/json', 'x-service-event': 'project.created', 'x-service-delivery': `b${i}`, 'x-service-signature': signPayload(body, secret) },
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`baseline got ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await agent.close();
  return n / seconds;
}

async function run(options = {}) {
  const events = Number(options.events || process.env.BENCH_EVENTS || 4000);
  const { buildApp } = dist('app.js');
  const { loadConfig } = dist('config.js');
  const { appendEvent } = dist('modules/events/outbox.js');
  const { signPayload } = dist('modules/webhooks/signature.js');

  const receiver = await startReceiverChild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-delivery-'));
  const config = loadConfig({
    TASKSPACE_DATA_DIR: dataDir,
    TASKSPACE_LOG_LEVEL: 'silent',
    TASKSPACE_BOOTSTRAP_TOKEN: 'tsk_bench_delivery',
    TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
  });
  // One receiver: the server keeps at most `concurrencyPerTarget` deliveries in flight to it.
  const concurrency = Math.min(config.webhooks.concurrency, config.webhooks.concurrencyPerTarget);
  const built = await buildApp({ config });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const svc = built.services;
  try {
    const owner = await built.app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: { authorization: 'Bearer tsk_bench_delivery' } });
    const workspaceId = owner.json().items[0].id;
    const registered = await built.app.inject({
      method: 'POST',
      url: '/api/v2/webhooks',
      headers: { authorization: 'Bearer tsk_bench_delivery' },
      payload: { targetUrl: `${receiver.url}/bench`, events: ['project.created'] },
    });
    if (registered.statusCode !== 200) throw new Error(`register failed: ${registered.body}`);
    const secret = registered.json().secret;
    await receiver.send({ secret, reset: true });

    const base = await baseline(`${receiver.url}/bench`, events, concurrency, secret, signPayload);

    await receiver.send({ reset: true, expected: events });
    const finished = receiver.done();
    const started = process.hrtime.bigint();
    const link = (id) => svc.links.url('/api/v1/projects/' + id);
    for (let i = 0; i < events; i += 20) {
      for (let j = i; j < Math.min(events, i + 20); j++) {
        const projectId = `bench-${j}`;
        await svc.store.run(
          svc.store.sql.transaction((tx) =>
            appendEvent(
              tx,
              { type: 'project.created', workspaceId, payload: { projectId, projectTitle: `Bench ${j}`, projectLink: link(projectId), folderId: workspaceId, createdBy: 'owner' } },
              svc.clock.now(),
            ),
          ),
        );
      }
      svc.signals.notify('events');
      await new Promise((r) => setImmediate(r));
    }
    const result = await Promise.race([
      finished,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`deliveries did not all arrive within 120 s`)), 120000).unref()),
    ]);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.bad > 0) throw new Error(`${result.bad} deliveries had a bad signature`);
    const sorted = result.latencies.slice().sort((a, b) => a - b);
    const out = {
      name: 'webhook delivery (commit to 2xx, signed)',
      events,
      concurrency,
      eventsPerSecond: events / seconds,
      baselinePerSecond: base,
      ratio: events / seconds / base,
      p50LatencyMs: percentile(sorted, 50),
      p99LatencyMs: percentile(sorted, 99),
    };
    console.log(`${`bare signed POSTs (${concurrency} in flight)`.padEnd(44)} ${base.toFixed(0).padStart(9)} events/s`);
    console.log(
      `${'taskspace delivery, commit to 2xx'.padEnd(44)} ${out.eventsPerSecond.toFixed(0).padStart(9)} events/s   ratio ${out.ratio.toFixed(2)}` +
        `   latency p50 ${out.p50LatencyMs} ms, p99 ${out.p99LatencyMs} ms`,
    );
    return out;
  } finally {
    await built.app.close();
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };
if (require.main === module) {
  if (process.argv[2] === '--receiver') receiverMain();
  else run().catch((e) => { console.error(e); process.exit(1); });
}
