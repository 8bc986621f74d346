import { hashPassword, hashPasswordSync, verifyPassword } from '../../server/src/accounts/passwords';
import { runCliWithInput, startServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

describe('password hashing', () => {
  it('stores a self-describing scrypt string that verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('correct horse battery', hashPasswordSync('correct horse battery'))).toBe(true);
    expect(await verifyPassword('anything at all', null)).toBe(false);
    expect(await verifyPassword('anything at all', 'scrypt$N=3,r=8,p=1$AA$AA')).toBe(false);
  });

  it('salts each hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });
});

describe('CLI accounts', () => {
  const run = (dir: string, args: string[], secret = '') => runCliWithInput(dir, secret, ...args);

  it('creates users with a unique email and sets a password read from outside argv', async () => {
    // The server's first start creates the database; the CLI never does.
    const server = await startServer();
    const dir = server.dataDir;
    try {
      expect(run(dir, ['user', 'create', 'ann', '--email', 'Ann@Example.org']).code).toBe(0);
      const dup = run(dir, ['user', 'create', 'bob', '--email', 'ann@example.org']);
      expect(dup.code).toBe(1);
      expect(dup.err).toContain('taken');
      expect(run(dir, ['user', 'create', 'bad', '--email', 'not-an-email']).code).toBe(1);
      const short = run(dir, ['user', 'set-password', 'ann'], 'short');
      expect(short.code).toBe(1);
      expect(short.err).toContain('at least 10');
      const set = run(dir, ['user', 'set-password', 'ann'], 'a long enough secret');
      expect(set.code).toBe(0);
      expect(set.out).not.toContain('a long enough secret');
      const db = dbOf(server);
      const row = (await db.get<{ email: string; hash: string }>("SELECT email, password_hash AS hash FROM users WHERE handle = 'ann'"))!;
      expect(row.email).toBe('Ann@Example.org');
      expect(row.hash).toMatch(/^scrypt\$/);
      expect(await verifyPassword('a long enough secret', row.hash)).toBe(true);
      expect(await db.value("SELECT COUNT(*) AS n FROM users WHERE handle IN ('bob', 'bad')")).toBe(0);
    } finally {
      await server.close();
    }
  });
});
