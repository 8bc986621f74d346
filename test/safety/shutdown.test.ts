import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDataDir } from '../helpers/server';
import { storeEnv } from '../helpers/test-store';

const ROOT = path.resolve(__dirname, '../..');

/**
 * `app.close()` settles in a process with nothing else to keep it alive (what `npm start`'s SIGTERM
 * and the benchmarks do): the worker threads the service keeps unref'd while idle (the WAL
 * checkpointer, the code sandbox) are held while they stop, so the close is not cut off by an
 * empty event loop before the last checkpoint and the database's close. A child process, as
 * jest's own handles would keep any loop alive. Needs the built server (`npm test` builds it).
 */
test('a service closes completely in a process that holds nothing else', () => {
  const script = `
    const { buildApp } = require(${JSON.stringify(path.join(ROOT, 'server/dist/app.js'))});
    const { loadConfig } = require(${JSON.stringify(path.join(ROOT, 'server/dist/config.js'))});
    (async () => {
      const built = await buildApp({ config: loadConfig(process.env) });
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      await built.app.close();
      console.log('closed');
    })().catch((error) => { console.error(error); process.exit(1); });
  `;
  const dataDir = tempDataDir();
  const result = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, TASKSPACE_DATA_DIR: dataDir, TASKSPACE_LOG_LEVEL: 'silent', ...storeEnv(dataDir) },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect({ status: result.status, out: result.stdout.trim(), err: result.stderr.trim() }).toEqual({ status: 0, out: 'closed', err: '' });
}, 90_000);
