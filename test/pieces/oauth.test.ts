import path from 'node:path';
import { addUser, call, client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, waitFor } from '../automations/helpers';
import { OWNER_PASSWORD, basic, consentFields, postForm, registerClient, signInCookie } from '../oauth/helpers';

const PROBE = path.join(__dirname, 'fixtures', 'oauth-probe');
const PIECE = 'taskspace-oauth-probe';
/** The provider's access token lifetime, in seconds: short, so that the test sees tokens expire. */
const LIFETIME_S = 5;

/**
 * An OAuth2 connection over real HTTP (docs/integrations.md "OAuth2 connections"): a second
 * Taskspace instance is the OAuth 2.0 provider, with a registered client; a test piece declares
 * PieceAuth.OAuth2 (PKCE) with that instance's URLs. An Owner registers the app, the connection
 * is made through the provider's consent page (answered as a person would), a step calls the
 * provider's API with the token; once the token expired the server refreshes it (one refresh for
 * two steps at once) and the steps succeed; a token the provider refused before its expiry is
 * refreshed once. No token, refresh token or client secret is in any answer a Viewer can read.
 */
describe('pieces: an OAuth2 connection to another Taskspace instance', () => {
  let provider: TestServer;
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let cookie: string;
  let oauthClient: { id: string; clientSecret?: string };
  let connectionId: string;
  const secrets = new Set<string>();

  /** The connection's stored value, read from the server's own database (the test's only view of the token). */
  const stored = async (): Promise<Record<string, any>> => {
    const { services } = server.built;
    const row = await services.store.run(
      services.store.sql.get<{ sealed: string }>('SELECT value_sealed AS sealed FROM connections WHERE id = ?', [connectionId]),
    );
    const value = JSON.parse(services.secretBox.open(row!.sealed));
    for (const s of [value.access_token, value.refresh_token]) if (s) secrets.add(s);
    return value;
  };
  /** Whether the provider still takes `token`. */
  const accepted = async (token: string) => (await call(provider.url, 'GET', '/api/v1/workspaces', { token })).status === 200;

  beforeAll(async () => {
    provider = await startServer({
      env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD, TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS: String(LIFETIME_S) },
    });
    cookie = await signInCookie(provider);
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    server = await startServer({ dataDir, env: AUTOMATION_ENV });
    api = client(server, server.token);
    oauthClient = await registerClient(provider, {
      type: 'confidential',
      name: 'Taskspace automations',
      redirectUris: [`${server.url}/api/v1/connections/oauth2/callback`],
    });
    secrets.add(oauthClient.clientSecret!);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  async function stepRun(automationId: string) {
    const run = (await api.post(`/api/v1/automations/${automationId}/test`, { payload: {} })).body.item;
    return run;
  }

  test('an Owner registers the app; the connection is made through the consent page', async () => {
    const ws = server.workspaceId;
    const coraToken = addUser(server, 'cora', { workspaceId: ws, role: 'Collaborator' });
    const collaborator = client(server, coraToken);
    // Without an app, a consent cannot start.
    const early = await api.post(`/api/v1/workspaces/${ws}/connections/oauth2`, {
      piece: PIECE,
      name: 'Other',
      props: { base_url: provider.url },
    });
    expect([early.status, early.body.error?.details?.reason]).toEqual([400, 'oauth_app_missing']);
    const app = { clientId: oauthClient.id, clientSecret: oauthClient.clientSecret };
    expect((await collaborator.put(`/api/v1/workspaces/${ws}/oauth2-apps/${PIECE}`, app)).status).toBe(403);
    const put = await api.put(`/api/v1/workspaces/${ws}/oauth2-apps/${PIECE}`, app);
    expect([put.status, put.body.item]).toEqual([
      200,
      expect.objectContaining({ piece: PIECE, clientId: oauthClient.id, source: 'workspace' }),
    ]);
    // A connection of type OAUTH2 is not made by posting a value.
    const posted = await api.post(`/api/v1/workspaces/${ws}/connections`, { piece: PIECE, name: 'x', auth: { type: 'OAUTH2' } });
    expect(posted.status).toBe(400);

    const start = await collaborator.post(`/api/v1/workspaces/${ws}/connections/oauth2`, {
      piece: PIECE,
      name: 'Other instance',
      props: { base_url: provider.url },
    });
    expect(start.status).toBe(200);
    const { authorizationUrl, state, redirectUri } = start.body.item;
    expect(redirectUri).toBe(`${server.url}/api/v1/connections/oauth2/callback`);
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: oauthClient.id,
      redirect_uri: redirectUri,
      scope: 'read',
      state,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect((await collaborator.get(`/api/v1/workspaces/${ws}/connections/oauth2/${state}`)).body.item).toEqual({ status: 'pending' });

    // The person consents at the provider, whose answer sends their browser back to this server.
    const page = await call(provider.url, 'GET', `${url.pathname}${url.search}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const answer = await postForm(
      provider,
      '/oauth/authorize',
      { ...consentFields(page.body), decision: 'allow' },
      { cookie, origin: provider.url },
    );
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe(state);
    // Only the person who started it can finish it.
    const stranger = await call(server.url, 'GET', `${back.pathname}${back.search}`, { token: server.token });
    expect(stranger.status).toBe(400);
    const landed = await call(server.url, 'GET', `${back.pathname}${back.search}`, { token: coraToken });
    expect([landed.status, landed.headers['content-type']]).toEqual([200, expect.stringContaining('text/html')]);
    expect(landed.body).toContain('Other instance');
    // A state is used once.
    expect((await call(server.url, 'GET', `${back.pathname}${back.search}`, { token: coraToken })).status).toBe(400);
    const status = (await collaborator.get(`/api/v1/workspaces/${ws}/connections/oauth2/${state}`)).body.item;
    expect(status).toEqual({ status: 'connected', connectionId: expect.any(String) });
    connectionId = status.connectionId;
    const listed = (await api.get(`/api/v1/workspaces/${ws}/connections?piece=${PIECE}`)).body.items;
    expect(listed).toEqual([expect.objectContaining({ id: connectionId, name: 'Other instance', authType: 'OAUTH2', createdBy: 'cora' })]);
    const value = await stored();
    expect(value).toMatchObject({ type: 'OAUTH2', token_type: 'Bearer', props: { base_url: provider.url } });
    expect(value.expires_in).toBeGreaterThanOrEqual(LIFETIME_S - 1);
    expect(value.client_secret).toBeUndefined();
    expect(await accepted(value.access_token)).toBe(true);
  });

  test('a step calls the provider with the token; after expiry the server refreshes it, once for two steps', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Provider workspaces',
      trigger: { type: 'webhook' },
      actions: [{ id: 'list', type: `${PIECE}.list_workspaces`, connectionId, props: {} }],
    });
    const first = await stepRun(automation.id);
    expect([first.status, first.steps[0].error]).toEqual(['completed', undefined]);
    expect(first.steps[0].output.workspaces).toEqual([expect.any(String)]);

    // The token expires at the provider.
    const before = await stored();
    await waitFor(async () => !(await accepted(before.access_token)), 'the provider to refuse the expired token', 20_000);
    const [a, b] = await Promise.all([stepRun(automation.id), stepRun(automation.id)]);
    for (const run of [a, b]) expect([run.status, run.steps[0].error]).toEqual(['completed', undefined]);
    const after = await stored();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // Both steps ran with the one new token: one refresh won, the other reused it (a second
    // refresh with the spent refresh token would have been refused by the provider).
    expect(a.steps[0].output.token).toBe(b.steps[0].output.token);
    expect(a.steps[0].output.token).not.toBe(first.steps[0].output.token);
    expect(await accepted(after.access_token)).toBe(true);
  });

  test('a token the provider refuses before its expiry is refreshed once and the step made again', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'After a revocation',
      trigger: { type: 'webhook' },
      actions: [{ id: 'list', type: `${PIECE}.list_workspaces`, connectionId, props: {} }],
    });
    const before = await stored();
    const revoked = await postForm(
      provider,
      '/oauth/revoke',
      { token: before.access_token },
      basic(oauthClient.id, oauthClient.clientSecret!),
    );
    expect(revoked.status).toBe(200);
    expect(await accepted(before.access_token)).toBe(false);
    const run = await stepRun(automation.id);
    expect([run.status, run.steps[0].error]).toEqual(['completed', undefined]);
    const after = await stored();
    expect(after.access_token).not.toBe(before.access_token);
  });

  test('no token, refresh token or client secret in any answer a Viewer can read', async () => {
    const ws = server.workspaceId;
    const automation = await createAutomation(api, ws, {
      name: 'Leaky',
      trigger: { type: 'webhook' },
      actions: [{ id: 'leak', type: `${PIECE}.leak`, connectionId, props: {} }],
    });
    const run = await stepRun(automation.id);
    expect(run.status).toBe('completed');
    expect(run.steps[0].output.access).toMatch(/^\[secret connection Other instance/);
    await stored();
    const viewer = client(server, addUser(server, 'vic', { workspaceId: ws, role: 'Viewer' }));
    const answers = [
      await viewer.get(`/api/v1/workspaces/${ws}/connections`),
      await viewer.get(`/api/v1/workspaces/${ws}/connections/${connectionId}`),
      await viewer.get(`/api/v1/workspaces/${ws}/oauth2-apps`),
      await viewer.get('/api/v1/automations/kinds'),
      await viewer.get(`/api/v1/automations?workspaceId=${ws}`),
      await viewer.get(`/api/v1/automations/${automation.id}`),
      await viewer.get(`/api/v1/automations/${automation.id}/runs`),
      await viewer.get(`/api/v1/automations/${automation.id}/runs/${run.id}`),
    ];
    for (const answer of answers) expect([answer.status]).toEqual([200]);
    expect(answers[2]!.body.items).toEqual([expect.objectContaining({ piece: PIECE, clientId: oauthClient.id })]);
    expect(secrets.size).toBeGreaterThanOrEqual(5);
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(Buffer.from(secret).toString('base64'));
        expect(text).not.toContain(Buffer.from(secret).toString('base64url'));
      }
    }
    // A Viewer starts no consent.
    const start = await viewer.post(`/api/v1/workspaces/${ws}/connections/oauth2`, {
      piece: PIECE,
      name: 'v',
      props: { base_url: provider.url },
    });
    expect(start.status).toBe(403);
  });
});
