'use strict';
// API throughput: GET task, GET tasks list (1,000-task project) and POST create task, each
// beside the bare Fastify baseline in the same run (medians of alternating rounds, BENCH_ROUNDS).
const { startTaskspace, startBare, pairedLoad, row, runIfMain, thousandTaskProject } = require('./lib');

async function run() {
  const bare = await startBare();
  const ts = await startTaskspace();
  try {
    const { projectId, taskId } = await thousandTaskProject(ts);
    const auth = { authorization: `Bearer ${ts.token}` };
    const results = [];
    const pair = async (name, bareOpts, tsOpts) => {
      const { bare: base, ours } = await pairedLoad(bareOpts, tsOpts);
      results.push({ name, bare: base, taskspace: ours, ratio: ours / base });
      console.log(row(`bare ${name}`, base));
      console.log(row(`taskspace ${name}`, ours, base));
    };
    await pair('GET task', { url: `${bare.url}/task` }, { url: `${ts.url}/api/v1/projects/${projectId}/tasks/${taskId}`, headers: auth });
    await pair('GET tasks (100 of 1,000)', { url: `${bare.url}/tasks` }, { url: `${ts.url}/api/v1/projects/${projectId}/tasks`, headers: auth });
    const body = JSON.stringify({ tasks: [{ contentType: 'text/markdown', content: 'Benchmark task' }] });
    await pair(
      'POST create task',
      { url: `${bare.url}/tasks`, method: 'POST', body, headers: { 'content-type': 'application/json' } },
      { url: `${ts.url}/api/v1/projects/${projectId}/tasks/`, method: 'POST', body, headers: { ...auth, 'content-type': 'application/json' } },
    );
    return results;
  } finally {
    await ts.stop();
    await bare.stop();
  }
}

module.exports = { run };
runIfMain(module, run);
