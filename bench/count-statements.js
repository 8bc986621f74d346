'use strict';
// Preloaded into a bench server (`node -r bench/count-statements.js server/dist/main.js`, see
// bench/profile.js): counts the statements the process sends to its store, by text, so a bench
// can report statements (and, on PostgreSQL, round trips) per request. Never loaded by the
// service itself. On SIGUSR2 the counts so far are written, as JSON, to BENCH_COUNT_FILE.
const fs = require('node:fs');
const path = require('node:path');

const counts = new Map();
const count = (text) => {
  const key = String(text).replace(/\s+/g, ' ').slice(0, 160);
  counts.set(key, (counts.get(key) || 0) + 1);
};
const serverRequire = (id) => require(require.resolve(id, { paths: [path.resolve(__dirname, '../server')] }));

// PostgreSQL: every client query is one round trip (pg sends each in its own round trip).
try {
  const pg = serverRequire('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(config, ...rest) {
    count(typeof config === 'string' ? config : config && config.text);
    return query.call(this, config, ...rest);
  };
} catch {
  // pg not installed: SQLite only.
}

// SQLite: each run/get/all/iterate of a prepared statement.
try {
  const Database = serverRequire('better-sqlite3');
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = Statement[method];
    Statement[method] = function countedStatement(...args) {
      count(this.source);
      return original.apply(this, args);
    };
  }
} catch {
  // better-sqlite3 not loadable.
}

process.on('SIGUSR2', () => {
  fs.writeFileSync(process.env.BENCH_COUNT_FILE, JSON.stringify(Object.fromEntries(counts)));
});
