import { fetchHttp } from '../../engine/src';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver, type Received } from './helpers';

/**
 * What an HTTP Request step sends once a redirect or a next page leaves the origin its author
 * addressed (issue 35, item 8; docs/automations.md "Actions", HTTP Request): only the safe
 * headers (Accept, Content-Type, User-Agent…) go on, so a key in a header of any name
 * (`X-RapidAPI-Key`, `Ocp-Apim-Subscription-Key`) stays with the origin it was meant for.
 */
describe('http.request: headers across origins', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let home: Awaited<ReturnType<typeof receiver>>;
  let away: Awaited<ReturnType<typeof receiver>>;

  /** The headers the author sets: keys under names no credential pattern knows, and safe ones. */
  const headers = {
    'X-RapidAPI-Key': 'rapid-key-1',
    'Ocp-Apim-Subscription-Key': 'apim-key-1',
    'X-Tenant': 'tenant-7',
    Authorization: 'Bearer home-token',
    Accept: 'application/json',
    'Accept-Language': 'fr',
    'User-Agent': 'taskspace-test',
  };

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    // Two listeners on two ports: two origins.
    away = await receiver((r) => (r.url === '/pages/2' ? { status: 200, body: ['b'] } : { status: 200, body: { landed: r.url } }));
    home = await receiver((r: Received): { status: number; headers?: Record<string, string>; body: unknown } => {
      if (r.url === '/out') return { status: 307, headers: { location: `${away.url}/landed` }, body: '' };
      if (r.url === '/stay') return { status: 302, headers: { location: '/here' }, body: '' };
      if (r.url === '/pages') return { status: 200, headers: { link: `<${away.url}/pages/2>; rel="next"` }, body: ['a'] };
      return { status: 200, body: { here: r.url } };
    });
  });
  afterAll(async () => {
    await home?.close();
    await away?.close();
    await server?.close();
  });

  async function run(action: Record<string, unknown>) {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Across origins',
      trigger: { type: 'webhook' },
      actions: [{ id: 'call', type: 'http.request', headers, ...action }],
    });
    const item = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(item.status).toBe('completed');
    return item;
  }

  const sent = (rx: typeof home, url: string) => rx.received.find((r) => r.url === url)!.headers;

  test('a cross-origin redirect keeps only the safe headers; the body and its Content-Type go on with a 307', async () => {
    await run({ method: 'POST', url: `${home.url}/out`, body: { type: 'json', value: { n: 1 } }, followRedirects: true });
    const first = sent(home, '/out');
    expect(first).toMatchObject({ 'x-rapidapi-key': 'rapid-key-1', 'ocp-apim-subscription-key': 'apim-key-1', 'x-tenant': 'tenant-7' });
    const landed = sent(away, '/landed');
    expect(landed).toMatchObject({ accept: 'application/json', 'accept-language': 'fr', 'user-agent': 'taskspace-test' });
    expect(landed['content-type']).toMatch(/^application\/json/);
    for (const name of ['x-rapidapi-key', 'ocp-apim-subscription-key', 'x-tenant', 'authorization']) expect(landed[name]).toBeUndefined();
    expect(away.received.find((r) => r.url === '/landed')!.body).toBe(JSON.stringify({ n: 1 }));
  });

  test('a same-origin redirect keeps every header', async () => {
    await run({ method: 'GET', url: `${home.url}/stay`, followRedirects: true });
    expect(sent(home, '/here')).toMatchObject({
      'x-rapidapi-key': 'rapid-key-1',
      'ocp-apim-subscription-key': 'apim-key-1',
      authorization: 'Bearer home-token',
    });
  });

  test('a next page on another origin (Link header) keeps only the safe headers', async () => {
    const done = await run({ method: 'GET', url: `${home.url}/pages`, pagination: { type: 'linkHeader' } });
    expect(done.steps[0].output).toMatchObject({ pages: 2, body: ['a', 'b'] });
    const next = sent(away, '/pages/2');
    expect(next).toMatchObject({ accept: 'application/json' });
    for (const name of ['x-rapidapi-key', 'ocp-apim-subscription-key', 'x-tenant', 'authorization']) expect(next[name]).toBeUndefined();
  });

  test("the engine's standalone fetch port follows redirects the same way", async () => {
    const before = away.received.length;
    const res = await fetchHttp().request({
      method: 'POST',
      url: `${home.url}/out`,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ n: 2 }),
      timeoutMs: 5000,
      maxRedirects: 3,
    });
    expect(res).toMatchObject({ status: 200, url: `${away.url}/landed` });
    const landed = away.received.slice(before).find((r) => r.url === '/landed')!;
    expect(landed.body).toBe(JSON.stringify({ n: 2 }));
    expect(landed.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json' });
    for (const name of ['x-rapidapi-key', 'ocp-apim-subscription-key', 'x-tenant', 'authorization'])
      expect(landed.headers[name]).toBeUndefined();
    const unfollowed = await fetchHttp().request({ method: 'GET', url: `${home.url}/stay`, headers: {}, timeoutMs: 5000 });
    expect(unfollowed.status).toBe(302);
  });
});
