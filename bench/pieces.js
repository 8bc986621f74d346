'use strict';
// A piece step's overhead (docs/integrations.md "Running pieces"): the same call — create a
// WordPress post on a local fake site, with Basic authentication and a JSON body — made by a
// `wordpress.create_post` step (the shipped piece, run in the piece worker pool, its request
// handed back to the guarded HTTP client) and by an `http.request` step, BENCH_PIECE_RUNS
// (default 50) test runs of each, alternating, one at a time. Prints each step's median run time
// and the piece's ratio to the HTTP step (the baseline, measured in the same run). The first piece
// run (the worker starting and loading the piece) is measured apart.
//
// Taskspace runs in this process (built from server/dist: `npx tsc -b server` first).
// Standalone: `node bench/pieces.js`. As a module: `run()` resolves the result object.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Agent } = require('undici');
const { api, median, runIfMain, OWNER_TOKEN, ROOT } = require('./lib');

const dist = (p) => require(path.join(ROOT, 'server/dist', p));

/** A fake WordPress site: 201 with a post for every POST to /wp-json/wp/v2/posts, 200 for every GET. */
async function fakeSite() {
  let posts = 0;
  const counted = { requests: 0 };
  const server = http.createServer((req, res) => {
    counted.requests++;
    req.resume();
    req.on('end', () => {
      // The piece checks that the site answers (GET /) before it posts.
      if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>blog</html>');
      const ok = req.method === 'POST' && req.url.startsWith('/wp-json/wp/v2/posts');
      res.writeHead(ok ? 201 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { id: ++posts, link: 'https://blog.example/p' } : {}));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counted,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function run() {
  const runs = Number(process.env.BENCH_PIECE_RUNS || process.env.BENCH_QUICK || 50);
  const site = await fakeSite();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-bench-pieces-'));
  const { buildApp } = dist('app.js');
  const { loadConfig } = dist('config.js');
  const config = loadConfig({
    TASKSPACE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_LOG_LEVEL: 'warn',
    TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
    TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
  });
  const built = await buildApp({ config });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${built.app.server.address().port}`;
  const dispatcher = new Agent({ connections: 4 });
  const json = (method, urlPath, body) => api(base, method, urlPath, OWNER_TOKEN, body, dispatcher);
  try {
    const workspaceId = (await json('GET', '/api/v1/workspaces')).items[0].id;
    const secret = 'bench-app-password';
    const connection = (
      await json('POST', `/api/v1/workspaces/${workspaceId}/connections`, {
        piece: 'wordpress',
        name: 'Bench blog',
        auth: { type: 'CUSTOM_AUTH', props: { username: 'bench', password: secret, website_url: site.url } },
      })
    ).item;
    const create = async (name, step) => (await json('POST', '/api/v1/automations', { workspaceId, name, trigger: { type: 'webhook' }, actions: [step] })).item;
    const piece = await create('Piece step', {
      id: 'post',
      type: 'wordpress.create_post',
      connectionId: connection.id,
      props: { title: 'Post {{ trigger.i }}', content: 'Body', status: 'draft' },
    });
    const plain = await create('HTTP step', {
      id: 'post',
      type: 'http.request',
      method: 'POST',
      url: `${site.url}/wp-json/wp/v2/posts`,
      headers: { authorization: `Basic ${Buffer.from(`bench:${secret}`).toString('base64')}` },
      body: { type: 'json', value: { title: 'Post {{ trigger.i }}', content: 'Body', status: 'draft' } },
    });
    const timed = async (automation, i) => {
      const started = performance.now();
      const result = (await json('POST', `/api/v1/automations/${automation.id}/test`, { payload: { i } })).item;
      if (result.status !== 'completed') throw new Error(`${automation.name}: run ${result.status} ${JSON.stringify(result.steps?.[0]?.error)}`);
      return performance.now() - started;
    };
    const firstPieceMs = await timed(piece, 0);
    await timed(plain, 0);
    const pieceMs = [];
    const httpMs = [];
    let pieceRequests = 0;
    for (let i = 1; i <= runs; i++) {
      const before = site.counted.requests;
      pieceMs.push(await timed(piece, i));
      pieceRequests += site.counted.requests - before;
      httpMs.push(await timed(plain, i));
    }
    const out = { name: 'pieces', runs, firstPieceMs, pieceMedianMs: median(pieceMs), httpMedianMs: median(httpMs), pieceRequestsPerRun: pieceRequests / runs };
    out.ratio = out.pieceMedianMs / out.httpMedianMs;
    console.log(`http.request step (baseline)          median ${out.httpMedianMs.toFixed(1)} ms per test run (${runs} runs)`);
    console.log(
      `wordpress.create_post piece step      median ${out.pieceMedianMs.toFixed(1)} ms per test run   ${out.ratio.toFixed(2)}x the baseline` +
        ` (the piece makes ${out.pieceRequestsPerRun.toFixed(1)} requests per run: it checks the site first)`,
    );
    console.log(`first piece run (worker start, piece load)   ${firstPieceMs.toFixed(1)} ms`);
    return out;
  } finally {
    await dispatcher.close();
    await built.app.close();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };
runIfMain(module, run);
