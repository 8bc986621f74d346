'use strict';
// `npm run bench`: every scenario, each printing requests (or events, or runs) per second and
// its ratio to a baseline measured in the same run. BENCH_SECONDS sets each load's duration.
// automations.js also runs the same workflow in a real n8n when one is installed in its cache (test/n8n-host/install-n8n.mjs)
// (bench/n8n.js; `npm run test:n8n` installs it, BENCH_N8N=0 skips it) and prints the ratio.
const fs = require('node:fs');
const path = require('node:path');

// `--smoke` (CI, `npm run bench:smoke`): every scenario end to end with tiny loads, so a broken
// bench fails CI; its figures mean nothing. Variables already set win.
const SMOKE = {
  BENCH_SECONDS: '1',
  BENCH_ROUNDS: '1',
  BENCH_EVENTS: '200',
  BENCH_SCALE_MAX: '1000',
  BENCH_SCALE_SECONDS: '1',
  BENCH_SHARED_RUNS: '100',
  BENCH_WEB_TASKS: '300',
  BENCH_N8N: '0',
  BENCH_FLOOD: '20',
  BENCH_QUICK: '5',
  BENCH_PROFILE_REQUESTS: '20',
};
if (process.argv.includes('--smoke')) for (const [name, value] of Object.entries(SMOKE)) process.env[name] ??= value;

const scenarios = ['api.js', 'delivery.js', 'automations.js', 'fairness.js', 'code.js', 'pieces.js', 'stores.js', 'profile.js', 'scale.js', 'web.js'].filter((f) => fs.existsSync(path.join(__dirname, f)));

(async () => {
  for (const file of scenarios) {
    console.log(`\n== ${file}`);
    await require(path.join(__dirname, file)).run();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
