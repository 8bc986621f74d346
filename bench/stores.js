'use strict';
// The two stores side by side: the same API operations and automation runs on the embedded SQLite
// file and on PostgreSQL, one server process each, with PostgreSQL's ratio to SQLite in the same
// run; then PostgreSQL with 1, 2 and 3 processes (one executing the runs, api processes beside
// it), each figure with its ratio to SQLite's one process and to one PostgreSQL process; then
// automation runs executed by 1, 2 and 3 processes sharing them, with the ratio to one.
// API figures are medians of alternating rounds (BENCH_ROUNDS) of 10 connections (12 by processes) for
// BENCH_SECONDS each; automation runs as in bench/automations.js (webhook → task → HTTP → branch).
// PostgreSQL: a fresh database made on the server of BENCH_POSTGRES_URL (default the local one,
// postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end.
const { randomBytes } = require('node:crypto');
const os = require('node:os');
const pg = require('pg');
const { api, load, median, startReceiver, startTaskspace, row, runIfMain, thousandTaskProject, OWNER_TOKEN } = require('./lib');
const automations = require('./automations');

const ADMIN_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when the PostgreSQL server runs on this machine: its CPU per request is then measured too. */
const LOCAL_DATABASE = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(ADMIN_URL).hostname);

/** What the figures below share the machine with, printed with them. */
const MACHINE = `${os.cpus().length} cores${LOCAL_DATABASE ? ', the PostgreSQL server on the same machine' : ''}, the load generator too`;

/**
 * CPU time per request of the server processes (and the database's, when local), in µs: the figure
 * that carries over to bigger machines, where throughput is cores divided by it.
 */
function cpuText(serverUs, databaseUs) {
  return `CPU/request: server ${serverUs.toFixed(0)} µs${databaseUs === undefined ? '' : `, database ${databaseUs.toFixed(0)} µs`}`;
}

/** Runs `fn` on a connection to the admin database. */
async function admin(fn) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database; resolves its URL and a drop function. */
async function scratchDatabase() {
  const name = `taskspace_bench_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)) };
}

/** The load options of each API operation on one server. */
function operations(server, { projectId, taskId }) {
  const headers = { authorization: `Bearer ${server.token}` };
  const body = JSON.stringify({ tasks: [{ contentType: 'text/markdown', content: 'Benchmark task' }] });
  return {
    'GET task': { url: `${server.url}/api/v1/projects/${projectId}/tasks/${taskId}`, headers },
    'GET tasks (100 of 1,000)': { url: `${server.url}/api/v1/projects/${projectId}/tasks`, headers },
    'POST create task': { url: `${server.url}/api/v1/projects/${projectId}/tasks/`, method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } },
  };
}

async function run() {
  const results = [];
  const database = await scratchDatabase();
  try {
    const sqlite = await startTaskspace({ DATABASE_URL: '' });
    const postgres = await startTaskspace({ DATABASE_URL: database.url });
    try {
      const onSqlite = operations(sqlite, await thousandTaskProject(sqlite));
      const onPostgres = operations(postgres, await thousandTaskProject(postgres));
      console.log(`API, one server process per store, 10 connections (${MACHINE}):`);
      const rounds = Number(process.env.BENCH_ROUNDS || 3);
      for (const name of Object.keys(onSqlite)) {
        const lite = [];
        const pg = [];
        for (let i = 0; i < rounds; i++) {
          lite.push(await load(onSqlite[name], { pids: [sqlite.child.pid] }));
          pg.push(await load(onPostgres[name], { pids: [postgres.child.pid], database: LOCAL_DATABASE }));
        }
        const [base, ours] = [median(lite.map((m) => m.rps)), median(pg.map((m) => m.rps))];
        const cpu = { sqlite: median(lite.map((m) => m.cpuUs)), postgres: median(pg.map((m) => m.cpuUs)), database: median(pg.map((m) => m.databaseCpuUs)) };
        results.push({ name, sqlite: base, postgres: ours, ratio: ours / base, cpuUsPerRequest: cpu });
        console.log(`${row(`sqlite ${name}`, base)}   ${cpuText(cpu.sqlite)}`);
        console.log(`${row(`postgres ${name}`, ours, base)}   ${cpuText(cpu.postgres, LOCAL_DATABASE ? cpu.database : undefined)}`);
      }
    } finally {
      await postgres.stop();
      await sqlite.stop();
    }
    const runsOnSqlite = await automations.runTaskspace({ DATABASE_URL: '' });
    const runsOnPostgres = await automations.runTaskspace({ DATABASE_URL: database.url });
    const ratio = runsOnPostgres.runsPerSecond / runsOnSqlite.runsPerSecond;
    results.push({ name: 'automation runs', sqlite: runsOnSqlite.runsPerSecond, postgres: runsOnPostgres.runsPerSecond, ratio });
    console.log('automation runs (webhook → create task → HTTP Request → branch), 10 concurrent callers, one process:');
    console.log(`  sqlite   ${runsOnSqlite.runsPerSecond.toFixed(0).padStart(7)} runs/s   p50 ${runsOnSqlite.p50Ms.toFixed(1)} ms, p99 ${runsOnSqlite.p99Ms.toFixed(1)} ms`);
    console.log(
      `  postgres ${runsOnPostgres.runsPerSecond.toFixed(0).padStart(7)} runs/s   p50 ${runsOnPostgres.p50Ms.toFixed(1)} ms, p99 ${runsOnPostgres.p99Ms.toFixed(1)} ms   ratio ${ratio.toFixed(2)}`,
    );
    results.push(...(await apiByProcesses(results)));
    results.push(...(await runsByProcesses(runsOnSqlite.runsPerSecond)));
    results.push(...(await sharedRunsByProcesses()));
  } finally {
    await database.drop();
  }
  return results;
}

/** The secret key every process on one bench database shares. */
const BENCH_KEY = 'bench-secret-key-0123456789abcdefghijkl';

/** Formats a figure with its ratios to SQLite's one process and to one PostgreSQL process. */
function processRow(label, value, unit, sqlite, one) {
  return `${label.padEnd(50)} ${value.toFixed(0).padStart(9)} ${unit}   ratio to sqlite ${(value / sqlite).toFixed(2)}, to one process ${(value / one).toFixed(2)}`;
}

/**
 * API throughput on PostgreSQL with 1, 2 and 3 processes: one `all` process, then one and two
 * `TASKSPACE_ROLE=api` processes beside it, 12 connections spread evenly over them (reads of one
 * project; creates each into a project of the process's own, as teams write to their own
 * projects), medians of BENCH_ROUNDS rounds. `sqliteResults` holds the one-process SQLite figures
 * of the same operations, measured above.
 */
async function apiByProcesses(sqliteResults) {
  const database = await scratchDatabase();
  const env = { DATABASE_URL: database.url, TASKSPACE_WEBHOOKS_SECRET_KEY: BENCH_KEY };
  const servers = [];
  const results = [];
  try {
    servers.push(await startTaskspace(env));
    for (let i = 0; i < 2; i++) servers.push(await startTaskspace({ ...env, TASKSPACE_ROLE: 'api' }));
    const shared = await thousandTaskProject(servers[0]);
    const own = [];
    for (const server of servers) own.push(await thousandTaskProject(server));
    const targets = servers.map((server, i) => ({ ...operations(server, shared), 'POST create task': operations(server, own[i])['POST create task'] }));
    const rounds = Number(process.env.BENCH_ROUNDS || 3);
    console.log(`API on PostgreSQL by processes (one all process, then api processes beside it), 12 connections spread over them (${MACHINE}: a process beyond the cores left over adds no CPU; server CPU/request is summed over the processes):`);
    for (const name of Object.keys(targets[0])) {
      const figures = [[], [], []];
      const cpus = [[], [], []];
      const databaseCpus = [[], [], []];
      const busy = [0, 0, 0];
      for (let round = 0; round < rounds; round++) {
        for (let n = 1; n <= 3; n++) {
          const opts = { ...targets[0][name], url: targets.slice(0, n).map((t) => t[name].url), connections: 12 };
          const measured = await load(opts, { tolerateBusy: true, pids: servers.slice(0, n).map((s) => s.child.pid), database: LOCAL_DATABASE });
          figures[n - 1].push(measured.rps);
          cpus[n - 1].push(measured.cpuUs);
          databaseCpus[n - 1].push(measured.databaseCpuUs);
          busy[n - 1] += measured.busy;
        }
      }
      const medians = figures.map(median);
      const sqlite = sqliteResults.find((r) => r.name === name).sqlite;
      for (let n = 1; n <= 3; n++) {
        const cpu = { server: median(cpus[n - 1]), database: median(databaseCpus[n - 1]) };
        results.push({ name: `${name} (postgres, ${n} processes)`, postgres: medians[n - 1], sqlite, ratio: medians[n - 1] / sqlite, ratioToOne: medians[n - 1] / medians[0], busy: busy[n - 1], cpuUsPerRequest: cpu });
        const refused = busy[n - 1] > 0 ? `   (${busy[n - 1]} answered 503 BUSY, not counted)` : '';
        console.log(`${processRow(`postgres ${name}, ${n} process${n > 1 ? 'es' : ''}`, medians[n - 1], 'req/s', sqlite, medians[0])}   ${cpuText(cpu.server, LOCAL_DATABASE ? cpu.database : undefined)}${refused}`);
      }
    }
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await database.drop();
  }
  return results;
}

/**
 * Automation runs (as above) on PostgreSQL with 1, 2 and 3 processes: the one executing the runs,
 * then one and two api processes taking inbound calls beside it; the callers spread their calls
 * over all. Each count on a fresh database.
 */
async function runsByProcesses(sqliteRunsPerSecond) {
  const results = [];
  const figures = [];
  console.log('automation runs on PostgreSQL by processes (inbound calls spread over them; one process executes the runs):');
  for (let n = 1; n <= 3; n++) {
    const database = await scratchDatabase();
    try {
      const measured = await automations.runTaskspace({ DATABASE_URL: database.url, TASKSPACE_WEBHOOKS_SECRET_KEY: BENCH_KEY }, { apiProcesses: n - 1 });
      figures.push(measured.runsPerSecond);
      results.push({ name: `automation runs (postgres, ${n} processes)`, postgres: measured.runsPerSecond, sqlite: sqliteRunsPerSecond, ratio: measured.runsPerSecond / sqliteRunsPerSecond, ratioToOne: measured.runsPerSecond / figures[0] });
      console.log(`${processRow(`postgres automation runs, ${n} process${n > 1 ? 'es' : ''}`, measured.runsPerSecond, 'runs/s', sqliteRunsPerSecond, figures[0])}   p50 ${measured.p50Ms.toFixed(1)} ms`);
    } finally {
      await database.drop();
    }
  }
  return results;
}

/** Runs counted as finished by {@link sharedRunsByProcesses}. */
const FINISHED = "SELECT count(*) AS n FROM automation_runs WHERE status IN ('completed', 'failed')";

/**
 * Automation runs (as above) on PostgreSQL executed by 1, 2 and 3 `all` processes, which share
 * them (each run claimed by one process with a lease): BENCH_SHARED_RUNS inbound calls (default
 * 2,000) from 10 callers spread over the processes, each caller sending its next call as soon as
 * one is accepted; timed from the first call until the database holds every run finished, after a
 * warm-up of 200. Each count on a fresh database.
 */
async function sharedRunsByProcesses() {
  const total = Number(process.env.BENCH_SHARED_RUNS || 2000);
  const results = [];
  const figures = [];
  console.log(`automation runs on PostgreSQL executed by every process (${total} inbound calls spread over them, timed until all finished):`);
  for (let n = 1; n <= 3; n++) {
    const database = await scratchDatabase();
    const receiver = await startReceiver();
    const servers = [];
    const db = new pg.Client({ connectionString: database.url });
    try {
      const env = { DATABASE_URL: database.url, TASKSPACE_WEBHOOKS_SECRET_KEY: BENCH_KEY, TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000000' };
      for (let i = 0; i < n; i++) servers.push(await startTaskspace(env));
      await db.connect();
      const json = (method, urlPath, body) => api(servers[0].url, method, urlPath, OWNER_TOKEN, body);
      const workspaceId = (await json('GET', '/api/v1/workspaces')).items[0].id;
      const projectId = (await json('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Bench' })).item.id;
      const hookPath = new URL((await automations.createBenchAutomation(json, workspaceId, projectId, receiver.url)).webhook.url).pathname;
      let sent = 0;
      const fire = async (count) => {
        const until = sent + count;
        const caller = async () => {
          while (sent < until) {
            const seq = sent++;
            await api(servers[seq % servers.length].url, 'POST', hookPath, null, { title: `Invoice ${seq}`, amount: seq % 1000 });
          }
        };
        await Promise.all(Array.from({ length: automations.CALLERS }, caller));
        for (;;) {
          if (Number((await db.query(FINISHED)).rows[0].n) >= until) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await fire(200);
      const started = performance.now();
      await fire(total);
      const perSecond = total / ((performance.now() - started) / 1000);
      figures.push(perSecond);
      results.push({ name: `shared automation runs (postgres, ${n} processes)`, postgres: perSecond, ratioToOne: perSecond / figures[0] });
      console.log(`  ${`${n} process${n > 1 ? 'es' : ''}`.padEnd(12)} ${perSecond.toFixed(0).padStart(7)} runs/s   ratio to one process ${(perSecond / figures[0]).toFixed(2)}`);
    } finally {
      await db.end().catch(() => undefined);
      for (const server of servers.reverse()) await server.stop();
      await receiver.stop();
      await database.drop();
    }
  }
  return results;
}

module.exports = { run, sharedRunsByProcesses, operations, scratchDatabase };
runIfMain(module, run);
