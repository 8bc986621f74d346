'use strict';
// The two stores side by side: the same API operations and automation runs on the embedded SQLite
// file and on PostgreSQL, one server process each, with PostgreSQL's ratio to SQLite in the same
// run. API figures are medians of alternating rounds (BENCH_ROUNDS) of 10 connections for
// BENCH_SECONDS each; automation runs as in bench/automations.js (webhook → task → HTTP → branch).
// PostgreSQL: a fresh database made on the server of BENCH_POSTGRES_URL (default the local one,
// postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end.
const { randomBytes } = require('node:crypto');
const pg = require('pg');
const { startTaskspace, pairedLoad, row, runIfMain, thousandTaskProject } = require('./lib');
const automations = require('./automations');

const ADMIN_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

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
      console.log('API, one server process per store, 10 connections:');
      for (const name of Object.keys(onSqlite)) {
        const { bare: base, ours } = await pairedLoad(onSqlite[name], onPostgres[name]);
        results.push({ name, sqlite: base, postgres: ours, ratio: ours / base });
        console.log(row(`sqlite ${name}`, base));
        console.log(row(`postgres ${name}`, ours, base));
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
  } finally {
    await database.drop();
  }
  return results;
}

module.exports = { run };
runIfMain(module, run);
