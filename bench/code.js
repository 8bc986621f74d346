'use strict';
// What a code step costs: runs per second of a one-step `code` automation against a one-step
// `set` automation computing the same value, measured in the same run (issue 35: goal under 2 ms
// extra per run). Each automation is driven by 10 concurrent callers in a closed loop (POST to its
// inbound URL, wait for the run to finish, call again), as bench/automations.js does; the two
// loads alternate for BENCH_ROUNDS rounds (default 3) so both see the same moments of a busy
// machine, and each figure is the median of its rounds. Reported: runs/s of each, the ratio
// code/set, the extra time per run (1000/code − 1000/set, in ms of the loaded server) and the
// one-caller p50 latency of each, and the machine's load average (the thread hand-offs of a code
// step wait for the scheduler when every core is busy).
//
// Taskspace runs in this process (built from server/dist: `npx tsc -b server` first); settings
// in the environment apply (`TASKSPACE_CODE_WORKERS` and the like).
// Standalone: `node bench/code.js`. As a module: `run()` resolves the result object.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Agent } = require('undici');
const { api, measureRuns, median, runIfMain, OWNER_TOKEN, ROOT } = require('./lib');

const dist = (p) => require(path.join(ROOT, 'server/dist', p));
const CALLERS = 10;
const GOAL_EXTRA_MS = 2;

async function run() {
  const rounds = Number(process.env.BENCH_ROUNDS || 3);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-code-'));
  const { buildApp } = dist('app.js');
  const { loadConfig } = dist('config.js');
  const config = loadConfig({
    ...process.env,
    TASKSPACE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
    TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000000',
  });
  const built = await buildApp({ config });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${built.app.server.address().port}`;
  const dispatcher = new Agent({ connections: CALLERS * 2, keepAliveTimeout: 10000 });
  const json = (method, urlPath, body) => api(base, method, urlPath, OWNER_TOKEN, body, dispatcher);
  // requestId -> settled run, or the resolver waiting for it
  const settled = new Map();
  built.app.automations.onRunSettled((r) => {
    const id = r.trigger && r.trigger.eventId;
    if (!id || (r.status !== 'completed' && r.status !== 'failed')) return;
    const resolve = settled.get(id);
    if (typeof resolve === 'function') {
      settled.delete(id);
      resolve(r);
    } else settled.set(id, r);
  });
  const finished = (requestId) => {
    const done = settled.get(requestId);
    if (done) {
      settled.delete(requestId);
      return Promise.resolve(done);
    }
    return new Promise((resolve) => settled.set(requestId, resolve));
  };
  try {
    const workspaceId = (await json('GET', '/api/v1/workspaces')).items[0].id;
    const create = async (name, actions) =>
      (await json('POST', '/api/v1/automations', { workspaceId, name, trigger: { type: 'webhook' }, actions })).item;
    const setStep = await create('Bench: set', [
      { id: 'calc', type: 'set', values: { total: '{{ trigger.amount }}', label: 'Invoice {{ trigger.title }}' } },
    ]);
    const codeStep = await create('Bench: code', [
      { id: 'calc', type: 'code', code: 'return { total: trigger.amount * 2, label: "Invoice " + trigger.title };' },
    ]);
    const measure = async (automation) => {
      const hookPath = new URL(automation.webhook.url).pathname;
      const once = async (seq) => {
        const { requestId } = await api(base, 'POST', hookPath, null, { title: `#${seq}`, amount: seq % 1000 }, dispatcher);
        return (await finished(requestId)).status === 'completed';
      };
      return measureRuns({ callers: CALLERS, once });
    };
    const sets = [];
    const codes = [];
    for (let i = 0; i < rounds; i++) {
      sets.push(await measure(setStep));
      codes.push(await measure(codeStep));
    }
    const perSecond = (results) => median(results.map((r) => r.loaded.perSecond));
    const singleP50 = (results) => median(results.map((r) => r.single.p50));
    const out = {
      name: 'code',
      setRunsPerSecond: perSecond(sets),
      codeRunsPerSecond: perSecond(codes),
      setSingleP50Ms: singleP50(sets),
      codeSingleP50Ms: singleP50(codes),
    };
    out.ratio = out.codeRunsPerSecond / out.setRunsPerSecond;
    out.extraMsPerRun = 1000 / out.codeRunsPerSecond - 1000 / out.setRunsPerSecond;
    out.loadAverage = os.loadavg()[0];
    console.log(
      `one-step automations, ${CALLERS} concurrent callers, median of ${rounds} round(s), machine load ${out.loadAverage.toFixed(1)} on ${os.cpus().length} cores:`,
    );
    console.log(
      `  set step   ${out.setRunsPerSecond.toFixed(0).padStart(6)} runs/s   one caller p50 ${out.setSingleP50Ms.toFixed(2)} ms (baseline)`,
    );
    console.log(
      `  code step  ${out.codeRunsPerSecond.toFixed(0).padStart(6)} runs/s   one caller p50 ${out.codeSingleP50Ms.toFixed(2)} ms`,
    );
    console.log(
      `  ratio code/set ${out.ratio.toFixed(2)}, ${out.extraMsPerRun.toFixed(2)} ms extra per run ` +
        `(one caller: ${(out.codeSingleP50Ms - out.setSingleP50Ms).toFixed(2)} ms), goal < ${GOAL_EXTRA_MS} ms${out.extraMsPerRun >= GOAL_EXTRA_MS ? ' (MISSED)' : ''}`,
    );
    return out;
  } finally {
    await dispatcher.close();
    await built.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };
runIfMain(module, run);
