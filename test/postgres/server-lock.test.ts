import { DatabaseInUseError } from '../../server/src/platform/db/postgres/server-lock';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { waitFor } from '../helpers/wait';
import { call, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type TestServer } from '../helpers/server';

/**
 * One server per PostgreSQL database (docs "Operations", "PostgreSQL"): a second server on the
 * database of a running one is refused with a message naming the database, and the lock goes
 * with its holder however it ends (a clean stop or kill -9).
 */
describe('the PostgreSQL server lock', () => {
  let database: TestDatabase;
  let first: TestServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await first?.close();
    await database.drop();
  });

  test('a second server on the same database is refused until the first one stops', async () => {
    first = await startServer({ env: { DATABASE_URL: database.url } });
    const refused = await startServer({ env: { DATABASE_URL: database.url } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseInUseError);
    expect((refused as Error).message).toContain(`the PostgreSQL database ${database.name} is in use by another Taskspace server`);
    // The refused server changed nothing: the first one still answers with its data.
    expect((await call(first.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
    await first.close();
    first = undefined;
    const next = await startServer({ env: { DATABASE_URL: database.url } });
    await next.close();
  });

  test('a server killed with SIGKILL leaves no lock behind', async () => {
    const child = await spawnServer(tempDataDir(), { DATABASE_URL: database.url });
    const refused = await startServer({ env: { DATABASE_URL: database.url } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseInUseError);
    await child.stop('SIGKILL');
    // PostgreSQL ends the dead process's session when its socket closes, and the lock with it.
    const next = await waitFor(
      () => startServer({ env: { DATABASE_URL: database.url } }).catch((error: unknown) => (error instanceof DatabaseInUseError ? undefined : Promise.reject(error))),
      'a server to start after the holder was killed',
    );
    expect((await call(next.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
    await next.close();
  });
});
