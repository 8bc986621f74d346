'use strict';
// Shared bench helpers: child-process servers, autocannon runs, JSON requests.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { request } = require('undici');

const ROOT = path.resolve(__dirname, '..');
const OWNER_TOKEN = 'tsk_bench_owner_token';

/** Starts `node <script>` with `env`, resolving `{url, stop}` once it prints "listening on <url>". */
function startProcess(script, env = {}) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Starts the built Taskspace server on a fresh data directory; `env` adds settings. */
async function startTaskspace(env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-'));
  const server = await startProcess(path.join(ROOT, 'server/dist/main.js'), {
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_DATA_DIR: dataDir,
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
    ...env,
  });
  return { ...server, dataDir, token: OWNER_TOKEN };
}

/** Starts the bare Fastify baseline. */
function startBare() {
  return startProcess(path.join(__dirname, 'bare-server.js'));
}

/** One JSON request; resolves the parsed body, throwing on a non-2xx status. */
async function api(base, method, urlPath, token, body) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(base + urlPath, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${urlPath} -> ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs autocannon and returns mean requests/second, failing on any non-2xx reply. */
async function load(opts) {
  const result = await autocannon({ connections: 10, duration: Number(process.env.BENCH_SECONDS || 5), ...opts });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${opts.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Formats a row of the results table. */
function row(name, value, baseline) {
  const ratio = baseline ? (value / baseline).toFixed(2) : '';
  return `${name.padEnd(44)} ${value.toFixed(0).padStart(9)} req/s ${ratio ? `  ratio ${ratio}` : ''}`;
}

module.exports = { startTaskspace, startBare, startProcess, api, load, row, OWNER_TOKEN, ROOT };
