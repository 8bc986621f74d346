import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type pg from 'pg';
import { TABLES_DIR } from './archive';

/**
 * PostgreSQL backups without `pg_dump` (docs "Operations", "Backup and restore"): every table of
 * the schema copied inside the backup's REPEATABLE READ snapshot, one file per table
 * (`database/tables/<table>.jsonl`), one row per line as PostgreSQL's own `row_to_json` writes it
 * (so every value keeps its text form: BYTEA as `\x…` hex, BIGINT as digits), and loaded back with
 * `json_populate_recordset`, which reads each value with its column's input function.
 */

/** Rows fetched from the cursor, and inserted, per statement. */
const BATCH_ROWS = 500;

/**
 * Writes every row of `tables` under `databaseDir/tables/`, through a cursor of the caller's open
 * transaction (the backup's snapshot).
 */
export async function copyTables(client: pg.ClientBase, tables: string[], databaseDir: string): Promise<void> {
  const folder = path.join(databaseDir, TABLES_DIR);
  fs.mkdirSync(folder, { recursive: true });
  for (const table of tables) {
    const fd = fs.openSync(path.join(folder, `${table}.jsonl`), 'w');
    try {
      await client.query(`DECLARE taskspace_copy NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM "${table}" t`);
      for (;;) {
        const { rows } = await client.query<{ j: string }>(`FETCH ${BATCH_ROWS} FROM taskspace_copy`);
        if (rows.length === 0) break;
        fs.writeSync(fd, rows.map((r) => r.j).join('\n') + '\n');
      }
      await client.query('CLOSE taskspace_copy');
    } finally {
      fs.closeSync(fd);
    }
  }
}

/**
 * Loads the table files of `databaseDir` into the schema made by the migrations, inside the
 * caller's open transaction: foreign keys are dropped first and added back (and so checked) once
 * every row is in, user triggers are off while loading (a task's insert would bump its project's
 * version again), and identity sequences continue after the highest value loaded.
 * @throws the database's error (the caller rolls back: nothing is half-loaded).
 */
export async function loadTables(client: pg.ClientBase, databaseDir: string): Promise<void> {
  const folder = path.join(databaseDir, TABLES_DIR);
  const files = fs.readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
  const tables = files.map((name) => name.slice(0, -'.jsonl'.length));
  const keys = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  for (const key of keys.rows) await client.query(`ALTER TABLE ${key.tbl} DROP CONSTRAINT "${key.name}"`);
  for (const table of tables) {
    await client.query(`ALTER TABLE "${table}" DISABLE TRIGGER USER`);
    // schema_migrations was written by the migrations run before the load: the backup's rows replace it.
    await client.query(`DELETE FROM "${table}"`);
    await loadFile(client, table, path.join(folder, `${table}.jsonl`));
    await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
  }
  for (const key of keys.rows) await client.query(`ALTER TABLE ${key.tbl} ADD CONSTRAINT "${key.name}" ${key.def}`);
  const identities = await client.query<{ tbl: string; col: string }>(
    `SELECT table_name AS tbl, column_name AS col FROM information_schema.columns
      WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  );
  for (const { tbl, col } of identities.rows) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('"${tbl}"', '${col}'), COALESCE((SELECT max("${col}") FROM "${tbl}"), 0) + 1, false)`,
    );
  }
}

/** Inserts the rows of one table file, {@link BATCH_ROWS} per statement. */
async function loadFile(client: pg.ClientBase, table: string, file: string): Promise<void> {
  const insert = `INSERT INTO "${table}" SELECT * FROM json_populate_recordset(NULL::"${table}", $1::json)`;
  let batch: string[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    if (batch.length === BATCH_ROWS) {
      await client.query(insert, [`[${batch.join(',')}]`]);
      batch = [];
    }
  }
  if (batch.length > 0) await client.query(insert, [`[${batch.join(',')}]`]);
}
