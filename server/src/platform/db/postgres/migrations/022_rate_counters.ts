import type { Migration } from '../../migrate';

/** PostgreSQL's half of migration 022 (../../migrations/022_rate_counters.ts): hourly request budgets by caller key. */
export const m022RateCounters: Migration = {
  version: 22,
  name: 'rate_counters',
  up: `
CREATE TABLE rate_counters (
  key           TEXT COLLATE "C" NOT NULL,
  window_start  BIGINT NOT NULL,
  count         BIGINT NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);`,
};
