import fs from 'node:fs';
import path from 'node:path';
import { listArchive } from '../../server/src/ops/archive';
import { startServer, tempDataDir } from '../helpers/server';
import { onPostgres } from '../helpers/test-store';
import { waitFor } from '../helpers/wait';

/** Scheduled backups (docs/operations.md "Scheduled backups"): TASKSPACE_BACKUP_CRON, keeping the newest TASKSPACE_BACKUP_KEEP. */

const NAME = /^taskspace-backup-.*\.tar\.gz$/;
const backupsIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => NAME.test(n)) : []);

test('every slot of the pattern makes a backup and only the newest are kept', async () => {
  const dir = path.join(tempDataDir(), 'backups');
  const server = await startServer({
    env: { TASKSPACE_BACKUP_CRON: '* * * * * *', TASKSPACE_BACKUP_KEEP: '1', TASKSPACE_BACKUP_DIR: dir },
  });
  const seen = new Set<string>();
  try {
    await waitFor(
      () => {
        for (const name of backupsIn(dir)) seen.add(name);
        return seen.size >= 2;
      },
      () => `2 scheduled backups (saw ${[...seen].join(', ')})`,
      60_000,
    );
  } finally {
    // Stopping waits for a backup under way and its pruning.
    await server.close();
  }
  // One more may have been made while the server stopped: the one kept is the newest of all.
  const kept = backupsIn(dir);
  expect(kept.length).toBe(1);
  for (const name of seen) expect(name <= kept[0]!).toBe(true);
  expect([...seen].filter((name) => name !== kept[0]).length).toBeGreaterThan(0);
  expect(await listArchive(path.join(dir, kept[0]!))).toContain('taskspace-backup.json');
}, 120_000);

test('a bad pattern is refused at start', async () => {
  await expect(startServer({ env: { TASKSPACE_BACKUP_CRON: 'every night' } })).rejects.toThrow(
    /TASKSPACE_BACKUP_CRON is not a cron pattern/,
  );
});

(onPostgres() ? test : test.skip)(
  'on PostgreSQL only the leading process makes them: a follower on the same database makes none',
  async () => {
    const leaderDir = path.join(tempDataDir(), 'leader-backups');
    const followerDir = path.join(tempDataDir(), 'follower-backups');
    const env = { TASKSPACE_BACKUP_CRON: '* * * * * *', TASKSPACE_BACKUP_KEEP: '5' };
    const leader = await startServer({ env: { ...env, TASKSPACE_BACKUP_DIR: leaderDir } });
    const follower = await startServer({ dataDir: leader.dataDir, env: { ...env, TASKSPACE_BACKUP_DIR: followerDir } });
    try {
      expect(leader.built.services.leadership.leading).toBe(true);
      expect(follower.built.services.leadership.leading).toBe(false);
      await waitFor(() => backupsIn(leaderDir).length >= 2, 'two backups by the leader', 60_000);
    } finally {
      await follower.close();
      await leader.close();
    }
    expect(backupsIn(followerDir)).toEqual([]);
  },
  120_000,
);
