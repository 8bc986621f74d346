import type { Services } from '../../services';

/**
 * The piece store (`piece_store`, docs/integrations.md "Running pieces"): JSON values by scope
 * (`automation:<id>`, `workspace:<id>`) and key, each operation its own statement.
 */
export function pieceStore(svc: Services) {
  return {
    /** The value of `key` in `scope`, or null. */
    async get(scope: string, key: string): Promise<unknown> {
      const row = await svc.store.run(
        svc.store.sql.get<{ value: string }>('SELECT value_json AS value FROM piece_store WHERE scope = ? AND key = ?', [scope, key]),
      );
      return row ? (JSON.parse(row.value) as unknown) : null;
    },
    /** Sets `key` in `scope`. */
    async put(scope: string, key: string, value: unknown): Promise<void> {
      await svc.store.run(
        svc.store.sql.run(
          'INSERT INTO piece_store (scope, key, value_json, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
          [scope, key, JSON.stringify(value ?? null), svc.clock.now()],
        ),
      );
    },
    /** Removes every key of `scope` (a deleted automation's store). */
    async clear(scope: string): Promise<void> {
      await svc.store.run(svc.store.sql.run('DELETE FROM piece_store WHERE scope = ?', [scope]));
    },
    /** Removes `key` from `scope`. */
    async delete(scope: string, key: string): Promise<void> {
      await svc.store.run(svc.store.sql.run('DELETE FROM piece_store WHERE scope = ? AND key = ?', [scope, key]));
    },
  };
}
