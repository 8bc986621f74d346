import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './platform/db/data-dir-lock';

/** `npm start`: reads the environment, starts the service and prints its URL (and, on first start, the owner's token). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`taskspace: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  let built;
  try {
    built = await buildApp({
      config,
      onLockHeld: (database, holder, standby) => {
        const leader = `the PostgreSQL database ${database} is led by another Taskspace server${holder ? ` (${holder})` : ''}`;
        process.stdout.write(
          standby
            ? `Standing by: ${leader}; taking over when it stops (TASKSPACE_STANDBY=1)\n`
            : `Following: ${leader}; this one takes its share of automation runs and webhook deliveries, and leads when that one stops\n`,
        );
      },
      onKeyMismatch: (message) => process.stderr.write(`taskspace: warning: ${message}\n`),
      onLockLost: (error) => {
        // Stop at once: another server may take the database over now. Every acknowledged write
        // is committed; work in flight is taken up again by the next server.
        process.stderr.write(`taskspace: ${error.message}\n`);
        process.exit(1);
      },
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`taskspace: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { app, services, bootstrap } = built;
  await app.listen({ port: config.port, host: config.host });
  const base = services.links.base();
  const where = config.databaseUrl ? `PostgreSQL database ${new URL(config.databaseUrl).pathname.slice(1)}` : config.dataDir;
  const role = config.role === 'all' ? '' : `; TASKSPACE_ROLE=${config.role}`;
  const firstStart = bootstrap
    ? `First start: created the owner '@owner' and workspace ${bootstrap.workspaceId}.\n` +
      (config.bootstrapToken
        ? "The owner's personal access token is the one set in TASKSPACE_BOOTSTRAP_TOKEN.\n"
        : `Personal access token (shown once, store it now):\n\n  ${bootstrap.token}\n\n`) +
      (bootstrap.setupToken
        ? `Set the owner's password within 24 hours (one-time link):\n\n  ${base}/setup?token=${bootstrap.setupToken}\n\n`
        : "The owner's password is the one set in TASKSPACE_BOOTSTRAP_PASSWORD.\n") +
      `Try: curl -H "Authorization: Bearer <token>" ${base}/api/v1/workspaces\n`
    : '';
  // One write, so a reader of the output never sees the listening line without the first-start lines.
  process.stdout.write(`Taskspace is listening on ${base} (data in ${where}${role})\n${firstStart}`);
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`taskspace: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
