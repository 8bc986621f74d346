#!/usr/bin/env node
/**
 * Builds the web app when its sources changed since the last build (`npm start` and `npm test`
 * call it, so a fresh clone serves the app with nothing extra to run). The fingerprint of the
 * sources is kept in dist/.source-hash. `--force` always builds.
 *
 * After the build every compressible asset (JavaScript, CSS, SVG, JSON) of 1 KiB or more gets a
 * brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside it, which the service sends
 * as they are when the browser accepts them (`@fastify/static` with `preCompressed`).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'vite';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = ['index.html', 'vite.config.ts', 'package.json', 'tsconfig.json', 'src', 'public'];

function files(entry) {
  const full = path.join(web, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full).sort().flatMap((name) => files(path.join(entry, name)));
}

const hash = createHash('sha256');
for (const file of inputs.flatMap(files)) hash.update(file).update('\0').update(fs.readFileSync(path.join(web, file))).update('\0');
const fingerprint = hash.digest('hex');
const stamp = path.join(web, 'dist', '.source-hash');
if (!process.argv.includes('--force') && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === fingerprint) {
  process.exit(0);
}
console.log('building the web app (web/)…');
await build({ root: web, logLevel: 'warn', configFile: path.join(web, 'vite.config.ts') });

/** Extensions worth compressing (images other than SVG are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html)$/;
/** Smaller files gain too little to be worth a second request path. */
const MIN_BYTES = 1024;
const assets = path.join(web, 'dist', 'assets');
for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
  const file = path.join(assets, name);
  if (!COMPRESSIBLE.test(name) || !fs.statSync(file).isFile()) continue;
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
}
fs.writeFileSync(stamp, fingerprint);
