import { BlockedTargetError, GuardedHttp } from '../../server/src/platform/guarded-http';
import { allowListOf, checkAddress, classifyAddress } from '../../server/src/platform/ssrf';
import { client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { startReceiver, waitFor, type Receiver } from './receiver';

/** The SSRF guard: address rules, refusal before connecting, and the development switch. */

const strict = { allowInsecure: false, allowList: undefined };
const dev = { allowInsecure: true, allowList: undefined };

test.each([
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:0:7f00:1', 'loopback'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['[::ffff:0:a00:1]', 'private'],
  ['::ffff:0:169.254.169.254', 'link-local'],
  ['::ffff:0:808:808', 'public'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.20.1.1', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['fd12:3456::1', 'private'],
  ['::ffff:10.0.0.1', 'private'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fd00:ec2::254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['0.0.0.0', 'reserved'],
  ['::', 'reserved'],
  ['224.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['ff02::1', 'reserved'],
  ['::127.0.0.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['8.8.8.8', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::8.8.8.8', 'public'],
])('%s is %s', (address, category) => {
  expect(classifyAddress(address)).toBe(category);
});

test('the development switch allows loopback and private addresses but never link-local, metadata or reserved ones', () => {
  for (const address of ['127.0.0.1', '::1', '10.0.0.1', '::ffff:192.168.0.1']) {
    expect([address, checkAddress(dev, address).allowed, checkAddress(strict, address).allowed]).toEqual([address, true, false]);
  }
  for (const address of ['169.254.169.254', 'fd00:ec2::254', '0.0.0.0', 'ff02::1']) {
    expect([address, checkAddress(dev, address).allowed]).toEqual([address, false]);
  }
  const listed = { allowInsecure: false, allowList: allowListOf(['10.1.0.0/16', '::1']) };
  expect(checkAddress(listed, '10.1.2.3').allowed).toBe(true);
  expect(checkAddress(listed, '::ffff:10.1.2.3').allowed).toBe(true);
  expect(checkAddress(listed, '10.2.0.1').allowed).toBe(false);
  expect(checkAddress(listed, '::1').allowed).toBe(true);
});

describe('guarded requests are refused before connecting', () => {
  let v4: Receiver;
  let v6: Receiver;
  beforeAll(async () => {
    v4 = await startReceiver();
    v6 = await startReceiver({ host: '::1' });
  });
  afterAll(async () => {
    await v4.close();
    await v6.close();
  });

  test.each([
    () => `https://127.0.0.1:${v4.port}/hook`,
    () => 'https://10.0.0.1/hook',
    () => 'https://169.254.169.254/latest/meta-data/',
    () => `https://[::1]:${v6.port}/hook`,
    () => `https://[::ffff:127.0.0.1]:${v4.port}/hook`,
    () => `https://[::ffff:0:7f00:1]:${v4.port}/hook`,
    () => `https://localhost:${v4.port}/hook`,
  ])('target #%# is refused', async (target) => {
    const http = new GuardedHttp(strict);
    await expect(http.request(target(), { method: 'POST', body: '{}', timeoutMs: 2000 })).rejects.toBeInstanceOf(BlockedTargetError);
    await http.close();
    expect(v4.connections + v6.connections).toBe(0);
  });

  test('a host name is refused when any of its addresses is blocked (rebinding-style answers)', async () => {
    const http = new GuardedHttp(strict, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]);
    await expect(http.request('https://mixed.example/hook', { method: 'POST', timeoutMs: 2000 })).rejects.toThrow(
      /10\.0\.0\.1, a private address/,
    );
    await http.close();
  });

  test('the pinned address is the one checked: a resolver answering 127.0.0.1 under the dev switch reaches the loopback receiver', async () => {
    const http = new GuardedHttp(dev, async () => [{ address: '127.0.0.1', family: 4 }]);
    const res = await http.request(`http://receiver.test:${v4.port}/pinned`, { method: 'POST', body: '{"a":1}', timeoutMs: 5000 });
    await http.close();
    expect(res.statusCode).toBe(200);
    expect(res.address).toBe('127.0.0.1');
    expect(v4.received.map((r) => [r.url, r.headers.host])).toEqual([['/pinned', `receiver.test:${v4.port}`]]);
  });

  test('http is refused outside the development switch', async () => {
    const http = new GuardedHttp(strict, async () => [{ address: '93.184.216.34', family: 4 }]);
    await expect(http.request('http://example.com/', { method: 'POST', timeoutMs: 2000 })).rejects.toThrow(/https only/);
    await http.close();
  });
});

describe('delivery to a host name resolving to loopback, outside the development switch', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer({ env: { TASKSPACE_WEBHOOKS_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('is refused at delivery time, logged as failed, and never connects', async () => {
    const url = `https://localhost:${receiver.port}/hook`;
    const reg = await client(server, OWNER_TOKEN).post('/api/v2/webhooks', { targetUrl: url, events: ['project.created'] });
    expect(reg.status).toBe(200);
    await client(server, OWNER_TOKEN).post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/markdown',
      content: '# SSRF',
    });
    const [entry] = await waitFor(async () => {
      const items = (await client(server, OWNER_TOKEN).get(`/api/v2/webhooks/${encodeURIComponent(url)}/deliveries`)).body.items;
      return items[0]?.status === 'failed' && items;
    }, 'the refusal');
    expect(entry).toMatchObject({ attemptCount: 1, lastStatusCode: null });
    expect(entry.lastError).toMatch(/BlockedTargetError: localhost resolves to 127\.0\.0\.1, a loopback address/);
    expect(receiver.connections).toBe(0);
  });
});
