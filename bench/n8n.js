'use strict';
// The same automation in a real n8n, for the ratio printed by bench/automations.js: a workflow
// Webhook (POST, "respond when last node finishes") → HTTP Request (POST to the loopback receiver
// of bench/lib.js, JSON body with fields from the webhook body) → If (on the receiver's answer),
// driven through its production webhook URL by 10 concurrent closed-loop callers, measured like
// the Taskspace run (bench/lib.js `measureRuns`: 1 s warm-up, one caller, then 10 callers for
// BENCH_SECONDS, default 5). Latency is from sending the webhook request to n8n's answer, which
// it sends after the If node has run. A call counts as finished only when the answer carries the
// receiver's reply for that very request.
//
// n8n comes from the cache of test/n8n-host/install-n8n.mjs (installed by `npm run test:n8n`);
// this file never installs it: without it, it prints one line and resolves `{skipped}`. n8n runs
// as `n8n start` in its own process group, on free loopback ports (main and task-runner broker),
// with a fresh temporary user folder (SQLite with a pool of 2, i.e. WAL, as n8n recommends),
// diagnostics, version notifications, templates, banners and the public API off. The whole
// group is killed afterwards and the folder removed.
//
// Standalone: `node bench/n8n.js`. As a module: `run()` resolves
// `{name, version, runsPerSecond, p50, p99, singleCallerP50, runs, seconds, rssMB, startupSeconds}`
// (latencies in ms, resident memory of the n8n processes after start-up in MB) or `{skipped}`.
const { execFile, spawn } = require('node:child_process');
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { promisify } = require('node:util');
const { Agent, request } = require('undici');
const { freePort, measureRuns, runIfMain, startReceiver, ROOT } = require('./lib');

const CALLERS = 10;
const WORKFLOW_ID = 'taskspaceBench01';
const HOOK_PATH = 'taskspace-bench';
const START_TIMEOUT_MS = 180000;
const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The workflow of the issue, in n8n's import format. */
function benchWorkflow(receiverUrl) {
  return {
    id: WORKFLOW_ID,
    name: 'Taskspace bench: webhook → HTTP Request → If',
    active: false,
    nodes: [
      {
        id: 'webhook',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2.1,
        position: [0, 0],
        webhookId: randomUUID(),
        parameters: { httpMethod: 'POST', path: HOOK_PATH, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} },
      },
      {
        id: 'notify',
        name: 'Notify',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        position: [220, 0],
        parameters: {
          method: 'POST',
          url: `${receiverUrl}/tickets`,
          sendBody: true,
          specifyBody: 'json',
          jsonBody: '={\n  "task": "{{ $json.body.title }}",\n  "title": "{{ $json.body.title }}",\n  "amount": {{ $json.body.amount }}\n}',
          options: {},
        },
      },
      {
        id: 'route',
        name: 'Route',
        type: 'n8n-nodes-base.if',
        typeVersion: 2.2,
        position: [440, 0],
        parameters: {
          conditions: {
            options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
            combinator: 'and',
            conditions: [
              { id: 'ok', leftValue: '={{ $json.ok }}', rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } },
              { id: 'task', leftValue: '={{ $json.task }}', rightValue: '', operator: { type: 'string', operation: 'notEmpty', singleValue: true } },
            ],
          },
          options: {},
        },
      },
    ],
    connections: {
      Webhook: { main: [[{ node: 'Notify', type: 'main', index: 0 }]] },
      Notify: { main: [[{ node: 'Route', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

/** Resident memory (MB) of every process in process group `pgid` (Linux /proc; NaN elsewhere). */
function groupRssMB(pgid) {
  let kb = 0;
  try {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state, ppid, pgrp, ...
        if (Number(fields[2]) !== pgid) continue;
        const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (rss) kb += Number(rss[1]);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return NaN;
  }
  return kb / 1024;
}

/** Starts `n8n start` in its own process group; `stop()` kills the group and resolves when it is gone. */
function startN8n(n8nBin, env) {
  const child = spawn(process.execPath, [n8nBin, 'start'], { cwd: env.N8N_USER_FOLDER, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-20000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is already empty
    }
  };
  const onExit = () => killGroup('SIGKILL');
  const onSignal = (signal) => {
    killGroup('SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid,
    output: () => output,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 15000);
      await exited;
      clearTimeout(timer);
      // n8n's own children (the task runner) go with it; make sure none is left behind.
      for (let i = 0; i < 50 && groupRssMB(child.pid) > 0; i++) {
        killGroup('SIGKILL');
        await sleep(100);
      }
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The installed n8n (`{bin, version}`), or undefined when the cache has none. */
async function installedN8n() {
  const { n8nBin, n8nDir } = await import(pathToFileURL(path.join(ROOT, 'test/n8n-host/install-n8n.mjs')).href);
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'), 'utf8'));
    if (fs.existsSync(n8nBin)) return { bin: n8nBin, version };
  } catch {
    // not installed
  }
  return undefined;
}

async function run() {
  const installed = await installedN8n();
  if (!installed) {
    const reason = 'n8n is not installed in its cache (`npm run test:n8n` installs it, about 5 minutes)';
    console.log(`n8n comparison skipped: ${reason}`);
    return { skipped: reason };
  }
  const name = `n8n ${installed.version}`;
  const receiver = await startReceiver();
  const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-n8n-'));
  const port = await freePort();
  const env = {
    ...process.env,
    N8N_USER_FOLDER: userFolder,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    WEBHOOK_URL: `http://127.0.0.1:${port}/`,
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
    N8N_DYNAMIC_BANNERS_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_COMMUNITY_PACKAGES_ENABLED: 'false',
    N8N_PUBLIC_API_DISABLED: 'true',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_SECURE_COOKIE: 'false',
    N8N_LOG_LEVEL: 'warn',
    DB_SQLITE_POOL_SIZE: '2',
  };
  let n8n;
  const dispatcher = new Agent({ connections: CALLERS * 2, keepAliveTimeout: 10000 });
  try {
    const t0 = Date.now();
    const file = path.join(userFolder, 'workflow.json');
    fs.writeFileSync(file, JSON.stringify(benchWorkflow(receiver.url)));
    const cli = async (...args) => {
      try {
        await execFileAsync(process.execPath, [installed.bin, ...args], { cwd: userFolder, env, maxBuffer: 16 << 20, timeout: START_TIMEOUT_MS });
      } catch (error) {
        throw new Error(`n8n ${args[0]} failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      }
    };
    await cli('import:workflow', `--input=${file}`);
    await cli('update:workflow', `--id=${WORKFLOW_ID}`, '--active=true');
    n8n = startN8n(installed.bin, env);
    const hookUrl = `http://127.0.0.1:${port}/webhook/${HOOK_PATH}`;

    // One run: POST to the production webhook; n8n answers with the If node's item, which is
    // the receiver's reply to this request.
    const once = async (seq) => {
      const title = `Invoice ${seq}`;
      const res = await request(hookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title, amount: seq % 1000 }),
        dispatcher,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) return false;
      const body = JSON.parse(text);
      return body.ok === true && body.task === title;
    };

    // Ready once the activated workflow answers its webhook.
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (!n8n.running()) throw new Error(`n8n exited during start-up:\n${n8n.output()}`);
      if (await once(0).catch(() => false)) break;
      if (Date.now() > deadline) throw new Error(`n8n did not answer ${hookUrl} within ${START_TIMEOUT_MS / 1000} s:\n${n8n.output()}`);
      await sleep(500);
    }
    const startupSeconds = (Date.now() - t0) / 1000;
    const rssMB = groupRssMB(n8n.pid);

    const { loaded, single } = await measureRuns({ callers: CALLERS, once });
    const result = {
      name,
      version: installed.version,
      runsPerSecond: loaded.perSecond,
      p50: loaded.p50,
      p99: loaded.p99,
      singleCallerP50: single.p50,
      runs: loaded.runs,
      seconds: loaded.seconds,
      rssMB,
      startupSeconds,
    };
    console.log(`${name} (webhook → HTTP Request → If, answered after the last node), ${CALLERS} concurrent callers, ${loaded.seconds.toFixed(1)} s:`);
    console.log(`  ${result.runsPerSecond.toFixed(1).padStart(7)} runs/s   request→answer p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`);
    console.log(`  one caller: request→answer p50 ${result.singleCallerP50.toFixed(1)} ms`);
    console.log(`  resident after start-up: ${rssMB.toFixed(0)} MB (n8n process group); import, activation and start-up took ${startupSeconds.toFixed(0)} s`);
    return result;
  } finally {
    await dispatcher.close();
    if (n8n) await n8n.stop();
    await receiver.stop();
    fs.rmSync(userFolder, { recursive: true, force: true });
  }
}

module.exports = { run };

runIfMain(module, run);
