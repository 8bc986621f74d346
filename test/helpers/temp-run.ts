import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One temporary folder per jest run. Every temporary file or folder a test makes (data
 * directories, certificates, n8n user folders, child servers' files) lands inside it, because the
 * global setup points `TMPDIR` (read by `os.tmpdir()` in jest's workers and in child processes) at
 * it; the global teardown removes it, so a run leaves nothing behind in the system temp directory.
 */

/** Environment variable naming the run's folder while jest runs. */
export const RUN_DIR_VARIABLE = 'TASKSPACE_TEST_RUN_DIR';
/** Prefix of run folders in the system temp directory. */
export const RUN_DIR_PREFIX = 'taskspace-test-run-';

/** Creates the run folder in the system temp directory and points `TMPDIR` at it; returns its path. */
export function beginRun(env: NodeJS.ProcessEnv = process.env): string {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), RUN_DIR_PREFIX));
  env[RUN_DIR_VARIABLE] = runDir;
  env.TASKSPACE_TEST_SYSTEM_TMPDIR = env.TMPDIR ?? '';
  env.TMPDIR = runDir;
  return runDir;
}

/**
 * Removes the run folder with everything in it and restores `TMPDIR`.
 * @throws when the folder is still there afterwards (the run would leave files behind).
 */
export function endRun(env: NodeJS.ProcessEnv = process.env): void {
  const runDir = env[RUN_DIR_VARIABLE];
  if (!runDir) return;
  fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  if (env.TASKSPACE_TEST_SYSTEM_TMPDIR) env.TMPDIR = env.TASKSPACE_TEST_SYSTEM_TMPDIR;
  else delete env.TMPDIR;
  delete env.TASKSPACE_TEST_SYSTEM_TMPDIR;
  delete env[RUN_DIR_VARIABLE];
  if (fs.existsSync(runDir)) throw new Error(`the test run's temporary folder ${runDir} could not be removed`);
}
