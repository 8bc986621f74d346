import { describeRunStore } from '../engine/run-store-contract';
import { describeSqliteOnly } from '../helpers/test-store';
import { sqliteBackend } from './run-store-sql';

/**
 * The RunStore conformance suite (test/engine/run-store-contract.ts) on the server's store over a
 * new SQLite file in a temporary folder. Skipped on a PostgreSQL run (`npm run test:postgres`),
 * where test/postgres/run-store.conformance.test.ts runs the suite on PostgreSQL.
 */
describeSqliteOnly('ServiceRunStore on SQLite', () => {
  describeRunStore('ServiceRunStore (SQLite file)', sqliteBackend);
});
