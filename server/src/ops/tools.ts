import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The absolute path of the executable `name` on `env.PATH`, or null when none is found
 * (how `taskspace backup` decides between `pg_dump` and the table copy).
 */
export function findExecutable(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env.PATH ?? '').split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Runs `command` with `args` (no shell) in `env` and resolves when it exits with 0.
 * @throws Error naming the command, its exit code and the end of its standard error otherwise.
 */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      // The arguments may hold a connection URL with its password: name the command only.
      else reject(new Error(`${path.basename(command)} failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`));
    });
  });
}

/**
 * A PostgreSQL URL for libpq's tools (`pg_dump`, `pg_restore`) without its password, and the
 * environment carrying the password (`PGPASSWORD`) instead: arguments are visible to every local
 * user in the process list, the environment is not.
 */
export function libpqArgs(url: string, env: NodeJS.ProcessEnv = process.env): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...env, PGPASSWORD: password } : { ...env } };
}
