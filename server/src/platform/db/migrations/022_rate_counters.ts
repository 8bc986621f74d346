import type { PairedMigration } from '../migrate';

/**
 * The hourly request budgets in the database (auth/rate-counters.ts): requests counted per
 * caller key (`u:<user id>`, `ip:<address>`) and fixed hour, so that a budget outlives a restart
 * or a standby's takeover and can be shared by several processes.
 */
export const m022RateCounters: PairedMigration = {
  version: 22,
  name: 'rate_counters',
  up: {
    sqlite: `
CREATE TABLE rate_counters (
  key           TEXT NOT NULL,
  window_start  INTEGER NOT NULL,
  count         INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_window ON rate_counters(window_start);`,
    postgres: `
CREATE TABLE rate_counters (
  key           TEXT COLLATE "C" NOT NULL,
  window_start  BIGINT NOT NULL,
  count         BIGINT NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);`,
  },
};
