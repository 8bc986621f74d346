import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { addUser, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { testSqliteOnly } from '../helpers/test-store';

const BIN = path.resolve(__dirname, '../../server/bin/taskspace.js');

/** Runs the `taskspace` bin as `npx taskspace` would, from `cwd`, without TASKSPACE_DATA_DIR unless given. */
function runBin(cwd: string, args: string[], env: Record<string, string> = {}) {
  const { TASKSPACE_DATA_DIR: _unused, ...inherited } = process.env;
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env }, encoding: 'utf8' });
}

describe('admin CLI: which data directory', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('run from another folder it names the directory it looked at, refuses, and creates nothing there', () => {
    const elsewhere = tempDataDir();
    for (const args of [
      ['user', 'list'],
      ['token', 'create', 'owner'],
      ['user', 'create', 'ann'],
    ]) {
      const res = runBin(elsewhere, args);
      expect(res.status).toBe(1);
      const looked = path.join(fs.realpathSync(elsewhere), '.data');
      expect(res.stderr).toContain(`data directory ${looked}`);
      expect(res.stderr).toContain(`no Taskspace database in ${looked}`);
      expect(res.stderr).toContain('TASKSPACE_DATA_DIR');
      expect(res.stderr).toContain('--data-dir');
      expect(res.stdout).toBe('');
    }
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    const unknown = runBin(elsewhere, ['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Usage: taskspace');
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  testSqliteOnly('an explicit directory without a database is refused too, and left without one', () => {
    const empty = tempDataDir();
    const res = runCli(empty, 'user', 'list');
    expect(res.code).toBe(1);
    expect(res.err).toContain(`no Taskspace database in ${empty}`);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  testSqliteOnly('on the service directory it prints which one to stderr (one line) and works, via --data-dir too', () => {
    const elsewhere = tempDataDir();
    const byFlag = runBin(elsewhere, ['user', 'list', '--data-dir', server.dataDir]);
    expect(byFlag.status).toBe(0);
    expect(byFlag.stderr).toBe(`taskspace: data directory ${server.dataDir}\n`);
    expect(byFlag.stdout).toContain('@owner\t');
    const byEquals = runBin(elsewhere, ['user', 'list', `--data-dir=${server.dataDir}`]);
    expect(byEquals.status).toBe(0);
    const byEnv = runBin(elsewhere, ['user', 'list'], { TASKSPACE_DATA_DIR: server.dataDir });
    expect(byEnv.status).toBe(0);
    expect(byEnv.stdout).toContain('@owner\t');
  });

  test('handles are accepted with their leading @ wherever the CLI takes one', () => {
    const created = runCli(server.dataDir, 'user', 'create', '@ann', '--verified');
    expect(created.code).toBe(0);
    expect(created.out).toContain('created user @ann ');
    expect(runCli(server.dataDir, 'user', 'update', '@ann', '--plan', 'pro').out).toContain('updated user @ann: plan=pro');
    const token = runCli(server.dataDir, 'token', 'create', '@owner');
    expect(token.code).toBe(0);
    expect(token.out).toMatch(/token \(shown once\): tsk_/);
    expect(runCli(server.dataDir, 'token', 'list', '@owner').code).toBe(0);
    const ws = runCli(server.dataDir, 'workspace', 'create', 'Second', '--owner', '@owner');
    expect(ws.code).toBe(0);
    const wsId = /created workspace (\S+)/.exec(ws.out)![1]!;
    expect(runCli(server.dataDir, 'workspace', 'list', '--user', '@owner').out).toContain(wsId);
    const member = runCli(server.dataDir, 'member', 'add', wsId, '@ann', 'Viewer');
    expect(member.code).toBe(0);
    expect(member.out).toBe(`@ann is now Viewer of workspace ${wsId}`);
    expect(runCli(server.dataDir, 'workspace', 'list', '--user', 'ann').out).toContain(wsId);
    // No user '@ann' was created beside 'ann'.
    expect(runCli(server.dataDir, 'user', 'list').out).not.toContain('@@ann');
    expect(addUser(server, 'bob')).toMatch(/^tsk_/);
  });
});
