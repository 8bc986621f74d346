'use strict';
// The web app's weight: JavaScript and CSS the first screen loads (everything index.html
// references), raw and gzip, against the budget of 250 KB gzip for JavaScript.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');

const BUDGET_GZIP_BYTES = 250 * 1024;

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
};
