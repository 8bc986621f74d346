'use strict';
// Cost as a project grows: one project filled through the API (batches of 100 tasks, several in
// flight) to 1,000, 100,000 and 1,000,000 tasks; at each size the same operations are measured
// and printed with their ratio to the 1,000-task project (each the median of three rounds), with
// the fill rate and the database file's bytes per task. BENCH_SCALE_MAX sets the largest size
// (default 1,000,000; 0 skips), BENCH_SCALE_SECONDS each round's length (default 3).
//
// The fill mixes what outlines hold: blocks appended at the end, runs of subtasks under the
// newest block, and, every 43rd batch, subtasks of the project's first task (about 2.3% of all
// tasks, so at 1,000,000 tasks the first task is the parent of about 23,000).
const fs = require('node:fs');
const path = require('node:path');
const { Agent } = require('undici');
const { startTaskspace, api, load, median, runIfMain } = require('./lib');

const BATCH = 100;
const IN_FLIGHT = 4;

async function run() {
  const max = Number(process.env.BENCH_SCALE_MAX ?? 1_000_000);
  if (max === 0) {
    console.log('skipped (BENCH_SCALE_MAX=0)');
    return [];
  }
  const sizes = [1_000, 100_000, 1_000_000].filter((n) => n <= max);
  const seconds = Number(process.env.BENCH_SCALE_SECONDS || 3);
  const ts = await startTaskspace();
  const dispatcher = new Agent({ connections: IN_FLIGHT });
  try {
    const workspaceId = (await api(ts.url, 'GET', '/api/v1/workspaces', ts.token)).items[0].id;
    const projectId = (await api(ts.url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, ts.token, { contentType: 'text/markdown', content: '# Scale' })).item.id;
    const tasksPath = `/api/v1/projects/${projectId}/tasks/`;
    const create = async (tasks) => (await api(ts.url, 'POST', tasksPath, ts.token, { tasks }, dispatcher)).item;
    const texts = (n, prefix) => Array.from({ length: n }, (_, i) => ({ contentType: 'text/plain', content: `${prefix} ${i}` }));
    const [first, middle] = await create(texts(2, 'Block'));
    let count = 2;
    let batchNo = 0;
    let newestBlock = middle.id;
    let last = middle.id;
    const fillTo = async (target) => {
      const started = Date.now();
      const before = count;
      while (count < target) {
        const jobs = [];
        for (let k = 0; k < IN_FLIGHT && count + jobs.length * BATCH < target; k++) {
          const n = Math.min(BATCH, target - count - jobs.length * BATCH);
          const b = batchNo++;
          let tasks = texts(n, `Task ${b}`);
          if (b % 43 === 0) tasks = tasks.map((t) => ({ ...t, taskId: first.id, placement: 'beforeend' }));
          else if (b % 2 === 0) tasks = tasks.map((t) => ({ ...t, taskId: newestBlock, placement: 'beforeend' }));
          jobs.push(create(tasks).then((made) => ({ b, made })));
        }
        for (const { b, made } of await Promise.all(jobs)) {
          count += made.length;
          last = made[made.length - 1].id;
          if (b % 43 !== 0 && b % 2 === 1) newestBlock = last;
        }
      }
      const perSecond = ((count - before) / Math.max(1, Date.now() - started)) * 1000;
      return perSecond;
    };
    const auth = { authorization: `Bearer ${ts.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const one = (extra) => JSON.stringify({ tasks: [{ contentType: 'text/plain', content: 'Measured', ...extra }] });
    // Reads first, so they see the size as filled; each write measured adds tasks (counted after).
    const operations = [
      ['GET the first task (most children)', () => ({ url: `${ts.url}${tasksPath}${first.id}`, headers: auth })],
      ['GET the last task', () => ({ url: `${ts.url}${tasksPath}${last}`, headers: auth })],
      ['GET the first page of tasks (100)', () => ({ url: `${ts.url}/api/v1/projects/${projectId}/tasks?limit=100`, headers: auth })],
      ['append a task', () => ({ url: ts.url + tasksPath, method: 'POST', body: one({}), headers: json }), true],
      ['add a subtask', () => ({ url: ts.url + tasksPath, method: 'POST', body: one({ taskId: middle.id, placement: 'beforeend' }), headers: json }), true],
    ];
    const dbBytes = () =>
      ['taskspace.sqlite', 'taskspace.sqlite-wal'].reduce((sum, f) => {
        const file = path.join(ts.dataDir, f);
        return sum + (fs.existsSync(file) ? fs.statSync(file).size : 0);
      }, 0);
    const baseline = {};
    const results = [];
    for (const size of sizes) {
      const fillRate = await fillTo(size);
      // Warm up once (JIT, caches), so the 1,000-task baseline is not a cold start: the reads on
      // this project, the writes on a scratch project (this one keeps its size).
      if (size === sizes[0]) {
        const scratch = (await api(ts.url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, ts.token, { contentType: 'text/markdown', content: '# Warm-up' })).item.id;
        const [parent] = (await api(ts.url, 'POST', `/api/v1/projects/${scratch}/tasks/`, ts.token, { tasks: texts(1, 'Parent') })).item;
        const scratchPath = `/api/v1/projects/${scratch}/tasks/`;
        for (const [, request, writes] of operations) if (!writes) await load({ ...request(), duration: 1 });
        await load({ url: ts.url + scratchPath, method: 'POST', body: one({}), headers: json, duration: 1 });
        await load({ url: ts.url + scratchPath, method: 'POST', body: one({ taskId: parent.id, placement: 'beforeend' }), headers: json, duration: 1 });
      }
      console.log(`-- ${size.toLocaleString('en-US')} tasks (filled at ${fillRate.toFixed(0)} tasks/s; ${(dbBytes() / count).toFixed(0)} bytes per task on disk)`);
      for (const [name, request, writes] of operations) {
        // The median of three rounds: one slow moment of a shared machine does not make a ratio.
        const rounds = [];
        for (let i = 0; i < 3; i++) rounds.push((await load({ ...request(), duration: seconds })).rps);
        const rps = median(rounds);
        if (writes) count += Math.round(rounds.reduce((sum, r) => sum + r, 0) * seconds);
        baseline[name] ??= rps;
        const ratio = rps / baseline[name];
        results.push({ size, name, rps, ratio });
        console.log(`${name.padEnd(40)} ${rps.toFixed(0).padStart(8)} req/s   ratio to 1,000 tasks ${ratio.toFixed(2)}`);
      }
    }
    return results;
  } finally {
    await dispatcher.close();
    await ts.stop();
  }
}

module.exports = { run };
runIfMain(module, run);
