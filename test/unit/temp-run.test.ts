import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beginRun, endRun, RUN_DIR_VARIABLE } from '../helpers/temp-run';
import { tempDataDir } from '../helpers/server';

describe('temporary folders of a test run', () => {
  test('under jest, data directories and every os.tmpdir() folder are made inside the run folder', () => {
    const runDir = process.env[RUN_DIR_VARIABLE];
    expect(runDir).toBeTruthy();
    expect(os.tmpdir()).toBe(runDir);
    const dir = tempDataDir();
    expect(path.dirname(dir)).toBe(runDir);
    expect(path.dirname(fs.mkdtempSync(path.join(os.tmpdir(), 'other-')))).toBe(runDir);
  });

  test('the teardown removes the run folder with everything in it and restores TMPDIR', () => {
    const env: NodeJS.ProcessEnv = { TMPDIR: os.tmpdir() };
    const runDir = beginRun(env);
    expect(env.TMPDIR).toBe(runDir);
    fs.mkdirSync(path.join(runDir, 'taskspace-test-x', 'media'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'taskspace-test-x', 'taskspace.sqlite'), 'x');
    endRun(env);
    expect(fs.existsSync(runDir)).toBe(false);
    expect(env).toEqual({ TMPDIR: os.tmpdir() });
  });
});
