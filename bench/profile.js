'use strict';
// Statements per request on each store: the server runs with bench/count-statements.js preloaded;
// each API operation of bench/stores.js is sent BENCH_PROFILE_REQUESTS times (default 200) one
// after another, and the statements the server sent in between are divided by that count. On
// PostgreSQL every statement is one round trip. Also the server's CPU time per request under
// load (10 connections, BENCH_SECONDS), read from /proc/<pid>/stat.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Agent, request } = require('undici');
const { cpuMs, load, runIfMain, startTaskspace, thousandTaskProject } = require('./lib');
const { operations, scratchDatabase } = require('./stores');

const COUNTER = path.join(__dirname, 'count-statements.js');

/** The statement counts so far of `server`, which writes them to `file` on SIGUSR2 (waits until it has). */
async function counts(server, file) {
  fs.rmSync(file, { force: true });
  server.child.kill('SIGUSR2');
  for (;;) {
    if (fs.existsSync(file)) {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        // being written
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Statements per request of `opts` on `server`, by text, most frequent first. */
async function statementsPerRequest(server, file, opts, n) {
  const dispatcher = new Agent({ connections: 1 });
  const send = async () => {
    const res = await request(opts.url, { method: opts.method || 'GET', headers: opts.headers, body: opts.body, dispatcher });
    await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${opts.url} -> ${res.statusCode}`);
  };
  for (let i = 0; i < 20; i++) await send();
  const before = await counts(server, file);
  for (let i = 0; i < n; i++) await send();
  const after = await counts(server, file);
  await dispatcher.close();
  const rows = Object.entries(after)
    .map(([text, c]) => [text, (c - (before[text] || 0)) / n])
    .filter(([, c]) => c > 0)
    .sort((a, b) => b[1] - a[1]);
  return { total: rows.reduce((sum, [, c]) => sum + c, 0), rows };
}

async function profileStore(label, env) {
  const file = path.join(os.tmpdir(), `taskspace-bench-counts-${process.pid}-${label}.json`);
  const server = await startTaskspace({ ...env, BENCH_COUNT_FILE: file }, ['-r', COUNTER]);
  const n = Number(process.env.BENCH_PROFILE_REQUESTS || 200);
  const results = [];
  try {
    const ops = operations(server, await thousandTaskProject(server));
    for (const [name, opts] of Object.entries(ops)) {
      const { total, rows } = await statementsPerRequest(server, file, opts, n);
      const cpuBefore = cpuMs(server.child.pid);
      const measured = await load(opts);
      const cpu = cpuMs(server.child.pid) - cpuBefore;
      const perRequestUs = (cpu * 1000) / (measured.rps * Number(process.env.BENCH_SECONDS || 5));
      results.push({ store: label, name, statements: total, cpuUsPerRequest: perRequestUs, rps: measured.rps });
      console.log(`${label.padEnd(9)}${name.padEnd(26)} ${total.toFixed(2).padStart(6)} statements/request   ${perRequestUs.toFixed(0).padStart(5)} µs server CPU/request   ${measured.rps.toFixed(0).padStart(6)} req/s`);
      for (const [text, c] of rows.slice(0, Number(process.env.BENCH_PROFILE_TOP || 8))) console.log(`      ${c.toFixed(2).padStart(6)}  ${text.slice(0, 130)}`);
    }
  } finally {
    await server.stop();
    fs.rmSync(file, { force: true });
  }
  return results;
}

async function run() {
  console.log('statements per request (on PostgreSQL each is one round trip) and server CPU per request, 10 connections:');
  const results = await profileStore('sqlite', { DATABASE_URL: '' });
  const database = await scratchDatabase();
  try {
    results.push(...(await profileStore('postgres', { DATABASE_URL: database.url })));
  } finally {
    await database.drop();
  }
  return results;
}

module.exports = { run };
runIfMain(module, run);
