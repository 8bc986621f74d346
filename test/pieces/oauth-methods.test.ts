import path from 'node:path';
import { addUser, call, client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, receiver } from '../automations/helpers';

const PROBE = path.join(__dirname, 'fixtures', 'basic-oauth-probe');
const PIECE = 'taskspace-basic-oauth-probe';
/** An id and secret with characters that RFC 6749 section 2.3.1 form-encodes before Basic. */
const APP = { clientId: 'app id:1', clientSecret: 's3cr&t+/=' };

/**
 * OAuth2 options of a piece's auth (docs/integrations.md "OAuth2 connections"), as Notion's
 * declares them: `extra` parameters are added to the authorization URL without replacing the
 * protocol's, and `authorizationMethod: HEADER` sends the app's credentials as HTTP Basic of the
 * form-encoded id and secret in the code exchange and in every refresh, the body naming neither.
 * A connection is reconnected in place by a new consent. The provider is a local fake that
 * records its token requests.
 */
describe('pieces: OAuth2 extra parameters and HTTP Basic client authentication', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let issued = 0;
  let provider: Awaited<ReturnType<typeof receiver>>;
  let connectionId: string;
  let automationId: string;

  beforeAll(async () => {
    provider = await receiver((r) => {
      if (r.url === '/token') {
        issued += 1;
        return {
          status: 200,
          body: { access_token: `at-${issued}`, refresh_token: `rt-${issued}`, token_type: 'bearer', expires_in: 3600 },
        };
      }
      // The first token is refused (revoked at the provider), so that the server refreshes.
      if (r.url === '/me')
        return r.headers.authorization === 'Bearer at-1' ? { status: 401, body: {} } : { status: 200, body: { seen: 'ok' } };
      return { status: 404, body: {} };
    });
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    server = await startServer({ dataDir, env: AUTOMATION_ENV });
    api = client(server, server.token);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  const tokenRequests = () => provider.received.filter((r) => r.url === '/token');
  const expectedBasic = `Basic ${Buffer.from('app%20id%3A1:s3cr%26t%2B%2F%3D').toString('base64')}`;

  test('the catalogue, the authorization URL and the code exchange follow the declaration', async () => {
    const ws = server.workspaceId;
    const described = (await api.get(`/api/v1/automations/pieces/${PIECE}/auth`)).body.item;
    expect(described.auth[0]).toMatchObject({
      type: 'OAUTH2',
      authorizationMethod: 'HEADER',
      extra: { owner: 'user', access_type: 'offline', state: 'from-the-piece' },
    });
    expect((await api.put(`/api/v1/workspaces/${ws}/oauth2-apps/${PIECE}`, APP)).status).toBe(200);
    const start = await api.post(`/api/v1/workspaces/${ws}/connections/oauth2`, {
      piece: PIECE,
      name: 'Basic',
      props: { base_url: provider.url },
    });
    expect(start.status).toBe(200);
    const { authorizationUrl, state, redirectUri } = start.body.item;
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      owner: 'user',
      access_type: 'offline',
      state,
      response_type: 'code',
      client_id: APP.clientId,
      redirect_uri: redirectUri,
      scope: 'pages',
    });
    expect(state).not.toBe('from-the-piece');

    // The provider sends the person's browser back with a code.
    const landed = await call(server.url, 'GET', `/api/v1/connections/oauth2/callback?state=${state}&code=the-code`, {
      token: server.token,
    });
    expect(landed.status).toBe(200);
    const status = (await api.get(`/api/v1/workspaces/${ws}/connections/oauth2/${state}`)).body.item;
    expect(status).toEqual({ status: 'connected', connectionId: expect.any(String) });
    connectionId = status.connectionId;
    const [exchange] = tokenRequests();
    expect(exchange!.headers.authorization).toBe(expectedBasic);
    expect(Object.fromEntries(new URLSearchParams(exchange!.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: redirectUri,
    });

    // A step whose token the provider refuses refreshes it the same way, then calls with the new one.
    const automation = await createAutomation(api, ws, {
      name: 'Who',
      trigger: { type: 'webhook' },
      actions: [{ id: 'who', type: `${PIECE}.whoami`, connectionId: status.connectionId, props: {} }],
    });
    automationId = automation.id;
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect([run.status, run.steps[0].error]).toEqual(['completed', undefined]);
    const refresh = tokenRequests()[1]!;
    expect(refresh.headers.authorization).toBe(expectedBasic);
    expect(Object.fromEntries(new URLSearchParams(refresh.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1' });
    expect(run.steps[0].output).toEqual({ seen: 'ok' });
    expect(provider.received.at(-1)!.headers.authorization).toBe('Bearer at-2');
  });

  test('a connection is reconnected in place: a new consent replaces its value; its id, name and steps stay', async () => {
    const ws = server.workspaceId;
    const viewer = client(server, addUser(server, 'vera', { workspaceId: ws, role: 'Viewer' }));
    expect((await viewer.post(`/api/v1/workspaces/${ws}/connections/${connectionId}/oauth2`, {})).status).toBe(403);
    expect((await api.post(`/api/v1/workspaces/${ws}/connections/no-such-id/oauth2`, {})).status).toBe(404);
    const secret = await api.post(`/api/v1/workspaces/${ws}/connections`, {
      piece: 'dumpling-ai',
      name: 'Key',
      auth: { type: 'SECRET_TEXT', secret_text: 'k' },
    });
    expect(secret.status).toBe(200);
    const notOAuth = await api.post(`/api/v1/workspaces/${ws}/connections/${secret.body.item.id}/oauth2`, {});
    expect([notOAuth.status, notOAuth.body.error?.details?.field]).toEqual([400, 'connectionId']);

    const exchanges = tokenRequests().length;
    // Without props, the connection's own fields (its provider URL) are used again.
    const start = await api.post(`/api/v1/workspaces/${ws}/connections/${connectionId}/oauth2`, {});
    expect(start.status).toBe(200);
    const { authorizationUrl, state } = start.body.item;
    expect(new URL(authorizationUrl).origin).toBe(provider.url);
    const landed = await call(server.url, 'GET', `/api/v1/connections/oauth2/callback?state=${state}&code=code-2`, { token: server.token });
    expect(landed.status).toBe(200);
    expect((await api.get(`/api/v1/workspaces/${ws}/connections/oauth2/${state}`)).body.item).toEqual({
      status: 'connected',
      connectionId,
    });
    const exchange = tokenRequests()[exchanges]!;
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toMatchObject({ grant_type: 'authorization_code', code: 'code-2' });
    const issuedNow = `at-${issued}`;

    // Still one connection of that name, and the automation's step runs with the new token.
    const listed = (await api.get(`/api/v1/workspaces/${ws}/connections?piece=${PIECE}`)).body.items;
    expect(listed.map((c: { id: string; name: string }) => [c.id, c.name])).toEqual([[connectionId, 'Basic']]);
    const run = (await api.post(`/api/v1/automations/${automationId}/test`, { payload: {} })).body.item;
    expect([run.status, run.steps[0].error]).toEqual(['completed', undefined]);
    expect(provider.received.at(-1)!.headers.authorization).toBe(`Bearer ${issuedNow}`);
    expect(tokenRequests().length).toBe(exchanges + 1);
  });

  test('a connection deleted during its reconnect is not made again', async () => {
    const ws = server.workspaceId;
    const start = await api.post(`/api/v1/workspaces/${ws}/connections/${connectionId}/oauth2`, {});
    expect(start.status).toBe(200);
    expect((await api.delete(`/api/v1/workspaces/${ws}/connections/${connectionId}`)).status).toBe(200);
    const { state } = start.body.item;
    const landed = await call(server.url, 'GET', `/api/v1/connections/oauth2/callback?state=${state}&code=code-3`, { token: server.token });
    expect(landed.status).toBe(400);
    expect((await api.get(`/api/v1/workspaces/${ws}/connections/oauth2/${state}`)).body.item).toEqual({
      status: 'failed',
      error: expect.stringContaining('deleted'),
    });
    expect((await api.get(`/api/v1/workspaces/${ws}/connections?piece=${PIECE}`)).body.items).toEqual([]);
  });
});
