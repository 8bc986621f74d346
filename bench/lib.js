'use strict';
// Shared bench helpers: child-process servers, autocannon runs, JSON requests, the loopback
// receiver of the automation benches and their closed-loop measurement.
const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { request } = require('undici');

// BENCH_ROOT: another built checkout to measure (its server/dist) with these bench scripts.
const ROOT = process.env.BENCH_ROOT || path.resolve(__dirname, '..');
const OWNER_TOKEN = 'tsk_bench_owner_token';

/**
 * Starts `node <nodeArgs…> <script>` with `env`, resolving `{url, child, stop}` once it prints
 * "listening on <url>".
 */
function startProcess(script, env = {}, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ url: match[1], child, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => (output += c.toString()));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

/**
 * Starts the built Taskspace server on a fresh data directory (removed by `stop()`); `env` adds
 * settings, `nodeArgs` Node options (`--cpu-prof`, `-r bench/count-statements.js`).
 */
async function startTaskspace(env = {}, nodeArgs = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-'));
  const server = await startProcess(path.join(ROOT, 'server/dist/main.js'), {
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_DATA_DIR: dataDir,
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
    ...env,
  }, nodeArgs);
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { ...server, stop, dataDir, token: OWNER_TOKEN };
}

/**
 * CPU time (user + system) process `pid` has used so far, in ms, from /proc/<pid>/stat (Linux;
 * 0 elsewhere). Resolution one clock tick (10 ms).
 */
function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms) used so far by every PostgreSQL server process on this machine (processes named
 * `postgres`: the backends of every connection, the WAL writer, the checkpointer ...), for the
 * database's share of a request when the database runs on the bench machine. Backends that exit
 * during a measurement take their share with them.
 */
function postgresCpuMs() {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      total += cpuMs(entry);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** Starts the bare Fastify baseline. */
function startBare() {
  return startProcess(path.join(__dirname, 'bare-server.js'));
}

/**
 * One JSON request; resolves the parsed body, throwing on a non-2xx status. `token` (optional)
 * is sent as a bearer token; `dispatcher` (optional) is an undici Agent to reuse connections.
 */
async function api(base, method, urlPath, token, body, dispatcher) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(base + urlPath, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${urlPath} -> ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Makes a project of 1,000 tasks (10 requests of 100) in the first workspace of a running server
 * (`{ url, token }`); resolves its id and the first task's id.
 */
async function thousandTaskProject(server) {
  const workspaceId = (await api(server.url, 'GET', '/api/v1/workspaces', server.token)).items[0].id;
  const project = (await api(server.url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, server.token, { contentType: 'text/markdown', content: '# Bench' })).item;
  let first;
  for (let batch = 0; batch < 10; batch++) {
    const tasks = Array.from({ length: 100 }, (_, i) => ({ contentType: 'text/markdown', content: `Task ${batch * 100 + i}` }));
    const created = await api(server.url, 'POST', `/api/v1/projects/${project.id}/tasks/`, server.token, { tasks });
    first = first || created.item[0];
  }
  return { projectId: project.id, taskId: first.id };
}

/**
 * Runs autocannon and returns mean requests/second, failing on any non-2xx reply. With `pids`
 * (server process ids), also their CPU time per answered request (`cpuUs`), and with `database`
 * the local PostgreSQL server's (`databaseCpuUs`), both in µs. With
 * `tolerateBusy`, 503 answers (PostgreSQL's `BUSY`: a write that collided past its last retry) are
 * counted instead (`busy`) and left out of `rps`, which then counts only 2xx answers.
 */
async function load(opts, { tolerateBusy = false, pids = [], database = false } = {}) {
  const autocannon = require('autocannon');
  const cpuBefore = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const databaseBefore = database ? postgresCpuMs() : 0;
  const result = await autocannon({ connections: 10, duration: Number(process.env.BENCH_SECONDS || 5), ...opts });
  const cpu = pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - cpuBefore;
  const databaseCpu = database ? postgresCpuMs() - databaseBefore : 0;
  const busy = tolerateBusy ? (result.statusCodeStats['503'] || { count: 0 }).count : 0;
  if (result.non2xx > busy || result.errors > 0) throw new Error(`${opts.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const rps = busy > 0 ? result['2xx'] / result.duration : result.requests.average;
  const answered = Math.max(1, result['2xx']);
  return {
    rps,
    busy,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // CPU time per answered request, in µs: of the server processes `pids` together, and of the database's processes.
    cpuUs: (cpu * 1000) / answered,
    databaseCpuUs: (databaseCpu * 1000) / answered,
  };
}

/**
 * The baseline and the measured server under the same load, alternated for BENCH_ROUNDS rounds
 * (default 3) so that both see the same moments of a busy machine; resolves each one's median
 * requests/second.
 */
async function pairedLoad(bareOpts, oursOpts) {
  const rounds = Number(process.env.BENCH_ROUNDS || 3);
  const bare = [];
  const ours = [];
  for (let i = 0; i < rounds; i++) {
    bare.push((await load(bareOpts)).rps);
    ours.push((await load(oursOpts)).rps);
  }
  return { bare: median(bare), ours: median(ours) };
}

/** The middle value of `values` (the upper middle of an even count). */
function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Formats a row of the results table. */
function row(name, value, baseline) {
  const ratio = baseline ? (value / baseline).toFixed(2) : '';
  return `${name.padEnd(44)} ${value.toFixed(0).padStart(9)} req/s ${ratio ? `  ratio ${ratio}` : ''}`;
}

/** A TCP port free on 127.0.0.1 right now (closed again before it resolves). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---- loopback receiver (child process) --------------------------------------------------------
// The HTTP Request step of the automation benches posts to it. It answers 200 with
// `{ok: true, n, task}` (`n` counts requests, `task` echoes the body's `task`), so a branch can
// test the response. It runs in its own process so its work is not charged to the measured server.
function receiverMain() {
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      n++;
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"ok":false}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, n, task: body.task }));
    });
  });
  server.keepAliveTimeout = 10000;
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => process.exit(0));
}

/** Forks the loopback receiver; resolves `{url, stop}` (`stop()` resolves once it has exited). */
function startReceiver() {
  const child = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
    child.once('message', (m) =>
      resolve({
        url: m.url,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      }),
    );
  });
}

// ---- closed-loop measurement ------------------------------------------------------------------
/** The `p`th percentile (0-100) of an ascending array; NaN when it is empty. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `callers` concurrent callers, each calling `once(seq)` again as soon as its previous call has
 * resolved, until `ms` have passed (a closed loop: throughput and latency come from the same
 * calls). `once` resolves true for a finished run, false for a failed one; `seq` counts from 1
 * across callers. Resolves `{runs, failed, seconds, perSecond, p50, p99}` (latencies in ms,
 * measured around each `once`).
 */
async function closedLoop({ callers, ms, once }) {
  const latencies = [];
  let failed = 0;
  let seq = 0;
  const until = Date.now() + ms;
  const caller = async () => {
    while (Date.now() < until) {
      const started = process.hrtime.bigint();
      if (!(await once(++seq))) failed++;
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: callers }, caller));
  const seconds = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { runs: latencies.length, failed, seconds, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * The automation benches' measurement: a 1 s warm-up with `callers`, then one caller for
 * min(2 s, BENCH_SECONDS), then `callers` for BENCH_SECONDS (default 5). Throws when any run
 * failed. Resolves `{seconds, loaded, single}` (each a `closedLoop` result).
 */
async function measureRuns({ callers, once }) {
  const seconds = Number(process.env.BENCH_SECONDS || 5);
  await closedLoop({ callers, ms: 1000, once });
  const single = await closedLoop({ callers: 1, ms: Math.min(2000, seconds * 1000), once });
  const loaded = await closedLoop({ callers, ms: seconds * 1000, once });
  if (loaded.failed + single.failed > 0) throw new Error(`${loaded.failed + single.failed} runs did not complete`);
  return { seconds, loaded, single };
}

/** Runs a scenario's `run()` when its file is started directly (`node bench/<file>.js`); exits 1 on failure. */
function runIfMain(mod, run) {
  if (require.main !== mod) return;
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

module.exports = {
  thousandTaskProject,
  runIfMain,
  pairedLoad,
  median,
  startTaskspace,
  startBare,
  startProcess,
  cpuMs,
  postgresCpuMs,
  startReceiver,
  api,
  load,
  row,
  freePort,
  percentile,
  closedLoop,
  measureRuns,
  OWNER_TOKEN,
  ROOT,
};

if (require.main === module && process.argv.includes('--receiver')) receiverMain();
