import fs from 'node:fs';
import net from 'node:net';
import { migrationsFor } from '../../server/src/platform/db/migrate';
import { migrations } from '../../server/src/platform/db/migrations';
import { client, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { emptyStoreEnv, onPostgres } from '../helpers/test-store';
import { runBin } from './helpers';

/** A real SMTP listener on loopback that answers the greeting and EHLO (RFC 5321), and records what it was sent. */
async function fakeSmtp(): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    socket.write('220 fake.test ESMTP ready\r\n');
    socket.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        received.push(line);
        if (line.startsWith('EHLO')) socket.write('250-fake.test greets you\r\n250 SIZE 1000000\r\n');
        else if (line === 'QUIT') socket.end('221 bye\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('taskspace doctor', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect(
      (await client(server, server.token).put(`/api/v1/workspaces/${server.workspaceId}/secrets/API_KEY`, { value: 'sk_doctor' })).status,
    ).toBe(200);
  });
  afterAll(() => server.close());

  test('on a running service: its schema, no pending migration, the key opening every secret, SMTP unset, free space', async () => {
    const report = await runBin(server.dataDir, ['doctor']);
    expect(report.code).toBe(0);
    const latest = Math.max(...migrationsFor(migrations, onPostgres() ? 'postgres' : 'sqlite').map((m) => m.version));
    expect(report.out).toContain(`[ok] schema: version ${latest} `);
    expect(report.out).toContain('[ok] migrations: none pending');
    expect(report.out).toMatch(/\[ok\] secrets: secrets key: \S+webhook-secrets\.key; it opens all 1 stored secret\(s\)/);
    expect(report.out).toContain('[ok] smtp: not configured (TASKSPACE_SMTP_URL unset)');
    expect(report.out).toMatch(new RegExp(`\\[(ok|warn)\\] disk: ${server.dataDir}: \\d+\\.\\d GiB free of \\d+\\.\\d GiB`));
  }, 60_000);

  test('SMTP: a server that answers EHLO is reachable; a closed port fails the check (exit 1)', async () => {
    const smtp = await fakeSmtp();
    try {
      const up = await runBin(server.dataDir, ['doctor'], { TASKSPACE_SMTP_URL: `smtp://user:secret@127.0.0.1:${smtp.port}` });
      expect(up.code).toBe(0);
      expect(up.out).toContain(`[ok] smtp: 127.0.0.1:${smtp.port} answers: 220 fake.test ESMTP ready; EHLO 250 SIZE 1000000`);
      expect(smtp.received[0]).toBe('EHLO taskspace-doctor');
      // No credentials are sent.
      expect(smtp.received.join('\n')).not.toContain('secret');
    } finally {
      await smtp.close();
    }
    const port = await closedPort();
    const down = await runBin(server.dataDir, ['doctor'], { TASKSPACE_SMTP_URL: `smtp://127.0.0.1:${port}` });
    expect(down.code).toBe(1);
    expect(down.out).toContain(`[fail] smtp: 127.0.0.1:${port} unreachable: ECONNREFUSED`);
  }, 60_000);

  test('a key that does not open the stored secrets fails the check and names them', async () => {
    const report = await runBin(server.dataDir, ['doctor'], { TASKSPACE_WEBHOOKS_SECRET_KEY: 'another-key-that-sealed-nothing-here-0123' });
    expect(report.code).toBe(1);
    expect(report.out).toContain(
      '[fail] secrets: secrets key: TASKSPACE_WEBHOOKS_SECRET_KEY; 1 of 1 stored secret(s) cannot be opened with it:',
    );
    expect(report.out).toContain(`unreadable: workspace_secrets.value_sealed (workspace_id=${server.workspaceId}, name=API_KEY)`);
  }, 60_000);

  test('without a database it fails and creates nothing', async () => {
    const dataDir = tempDataDir();
    emptyStoreEnv(dataDir);
    const before = fs.readdirSync(dataDir);
    const report = await runBin(dataDir, ['doctor', '--data-dir', dataDir]);
    expect(report.code).toBe(1);
    expect(report.out).toMatch(onPostgres() ? /\[fail\] schema: no Taskspace schema/ : /\[fail\] store: no Taskspace database in /);
    expect(fs.readdirSync(dataDir)).toEqual(before);
  }, 60_000);
});
