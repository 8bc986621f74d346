import type { Migration } from '../migrate';

/**
 * The hourly request budgets in the database (auth/rate-counters.ts): requests counted per
 * caller key (`u:<user id>`, `ip:<address>`) and fixed hour, so that a budget outlives a restart
 * or a standby's takeover and can be shared by several processes.
 */
export const m022RateCounters: Migration = {
  version: 22,
  name: 'rate_counters',
  up: `
CREATE TABLE rate_counters (
  key           TEXT NOT NULL,
  window_start  INTEGER NOT NULL,
  count         INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_window ON rate_counters(window_start);`,
};
