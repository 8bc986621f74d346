'use strict';
// The web app's weight: JavaScript and CSS the first screen loads (everything index.html
// references), raw and gzip, against the budget of 250 KB gzip for JavaScript. Then the time to
// first content of a project's outline in Debian's Chromium (skipped when none is installed): a
// 10,000-task project against a 100-task one in the same run, and against the 1 s budget.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');

const BUDGET_GZIP_BYTES = 250 * 1024;
/** First-load JavaScript as transferred (brotli from the service), in bytes: issue 29's budget. */
const BUDGET_TRANSFERRED_BYTES = 150 * 1024;
/** Time to first content budget of a 10,000-task project, in ms. */
const BUDGET_FIRST_CONTENT_MS = 1000;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** A project of `count` tasks (a tenth of them subtasks), created through the API 100 at a time. */
async function projectOf(server, name, count) {
  const { api } = require('./lib');
  const workspaceId = (await api(server.url, 'GET', '/api/v1/workspaces', server.token)).items[0].id;
  const project = (await api(server.url, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, server.token, { contentType: 'text/markdown', content: `# ${name}` })).item;
  let last;
  for (let made = 0; made < count; made += 100) {
    const tasks = [];
    for (let i = made; i < Math.min(count, made + 100); i++) {
      const child = i % 10 === 9 && last !== undefined;
      tasks.push({ contentType: 'text/plain', content: `Task ${i + 1}`, ...(child ? { taskId: last, placement: 'beforeend' } : {}) });
    }
    const created = (await api(server.url, 'POST', `/api/v1/projects/${project.id}/tasks/`, server.token, { tasks })).item;
    last = created[0].id;
  }
  return project.id;
}

/** Median ms from navigation start until the outline shows its first task, over `runs` cold page loads. */
async function firstContent(browser, server, projectId, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    const page = await context.newPage();
    await page.goto(`${server.url}/projects/${projectId}`, { waitUntil: 'commit' });
    await page.locator('[role=treeitem] input[aria-label="Task"]').first().waitFor({ timeout: 60000 });
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function timeToFirstContent() {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`time to first content: skipped (no Chromium at ${CHROMIUM}; apt-get install -y chromium)`);
    return;
  }
  const { startTaskspace } = require('./lib');
  const { chromium } = require('playwright-core');
  const server = await startTaskspace();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const small = await projectOf(server, 'Small', 100);
    const count = Number(process.env.BENCH_WEB_TASKS || 10000);
    const large = await projectOf(server, 'Large', count);
    await firstContent(browser, server, small, 1); // warm the server's caches and the browser's
    const base = await firstContent(browser, server, small, 5);
    const big = await firstContent(browser, server, large, 5);
    console.log(`time to first content, 100 tasks: ${base.toFixed(0)} ms (baseline)`);
    console.log(
      `time to first content, ${count.toLocaleString('en')} tasks: ${big.toFixed(0)} ms = ${(big / base).toFixed(2)}× the baseline, ` +
        `${(big / BUDGET_FIRST_CONTENT_MS).toFixed(2)}× the 1 s budget${big > BUDGET_FIRST_CONTENT_MS ? ' (OVER BUDGET)' : ''}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * The bytes a browser receives for the first screen: index.html from a running service, then every
 * script, preloaded module and stylesheet it references, asked for with `Accept-Encoding: br, gzip`
 * (the service sends the precompressed copies). Returns the JavaScript total in bytes.
 */
async function transferred() {
  const http = require('node:http');
  const { startTaskspace } = require('./lib');
  const get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { headers: { 'accept-encoding': 'br, gzip', accept: 'text/html,*/*' } }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ body: Buffer.concat(chunks), encoding: res.headers['content-encoding'] ?? 'identity' }));
        })
        .on('error', reject);
    });
  const server = await startTaskspace();
  try {
    const index = (await get(`${server.url}/`)).body.toString('utf8');
    const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    let js = 0;
    for (const asset of assets) {
      const res = await get(server.url + asset);
      if (asset.endsWith('.js')) js += res.body.length;
      console.log(`${asset}: ${(res.body.length / 1024).toFixed(1)} KB transferred (${res.encoding})`);
    }
    const ratio = js / BUDGET_TRANSFERRED_BYTES;
    console.log(`first-load JavaScript transferred: ${(js / 1024).toFixed(1)} KB = ${ratio.toFixed(2)}× the 150 KB budget${ratio > 1 ? ' (OVER BUDGET)' : ''}`);
    return js;
  } finally {
    await server.stop();
  }
}

exports.run = async function run() {
  const web = path.resolve(__dirname, '../web');
  execFileSync(process.execPath, [path.join(web, 'scripts/build.mjs')], { stdio: 'inherit' });
  const index = fs.readFileSync(path.join(web, 'dist/index.html'), 'utf8');
  const assets = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  let jsGzip = 0;
  for (const asset of assets) {
    const bytes = fs.readFileSync(path.join(web, 'dist', asset));
    const gzip = zlib.gzipSync(bytes, { level: 9 }).length;
    if (asset.endsWith('.js')) jsGzip += gzip;
    console.log(`${asset}: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzip / 1024).toFixed(1)} KB gzip`);
  }
  const ratio = jsGzip / BUDGET_GZIP_BYTES;
  console.log(`first-screen JavaScript: ${(jsGzip / 1024).toFixed(1)} KB gzip = ${ratio.toFixed(2)}× the 250 KB budget${ratio > 1 ? ' (OVER BUDGET)' : ''}`);
  await transferred();
  await timeToFirstContent();
};
