#!/usr/bin/env node
'use strict';
// `npx taskspace`: the admin CLI (server/src/cli.ts). This file exists before the TypeScript build,
// so npm can link the bin at install time; the install's `prepare` step builds dist/.
let cli;
try {
  cli = require('../dist/cli.js');
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND') {
    process.stderr.write('taskspace: the server is not built yet; run `npm run build:service` (or `npm start`) first\n');
    process.exit(1);
  }
  throw error;
}
// main returns the exit code, or a promise of it on PostgreSQL.
void Promise.resolve(cli.main(process.argv.slice(2))).then((code) => {
  process.exitCode = code;
});
