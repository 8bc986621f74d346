import type { PairedMigration } from '../migrate';

/**
 * The store of Activepieces pieces (docs/integrations.md "Running pieces"; issue 37): what a
 * piece keeps between runs with `context.store` (a polling trigger's last item, a conversation),
 * by scope — `automation:<id>` (the piece's FLOW scope) or `workspace:<id>` (PROJECT scope) — and
 * key. `value_json` is the JSON value. No foreign keys: a scope's rows are few and small.
 */
export const m034PieceStore: PairedMigration = {
  version: 34,
  name: 'piece_store',
  up: {
    sqlite: `
CREATE TABLE piece_store (
  scope       TEXT NOT NULL,
  key         TEXT NOT NULL,
  value_json  TEXT NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);`,
    postgres: `
CREATE TABLE piece_store (
  scope       TEXT COLLATE "C" NOT NULL,
  key         TEXT COLLATE "C" NOT NULL,
  value_json  TEXT COLLATE "C" NOT NULL,
  updated_at  BIGINT NOT NULL,
  PRIMARY KEY (scope, key)
);`,
  },
};
