import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describePiece } from '../../engine/src/pieces/manifest';
import { call, client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation } from '../automations/helpers';
import { OWNER_PASSWORD, consentFields, postForm, registerClient, signInCookie } from '../oauth/helpers';

const PROBE = path.join(__dirname, 'fixtures', 'old-oauth-probe');
const PIECE = 'taskspace-old-oauth-probe';

/**
 * Old-framework OAuth2 actions (docs/integrations.md "What ships"): a piece on the 2023
 * `@activepieces/framework` with no piece-level auth, whose actions take an
 * `authentication: Property.OAuth2(…)` property, gets that property as its OAuth2 auth (endpoints,
 * the union of the scopes); the catalogue lists its actions without the property; the connection
 * is made through the consent page of a second Taskspace instance (the provider), and a step runs
 * with the connection's token in `propsValue.authentication`, as does a dropdown refreshed on it.
 */
describe('pieces: old-framework actions with an OAuth2 property', () => {
  let provider: TestServer;
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let connectionId: string;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: { authorization?: string; body: string }[] = [];

  beforeAll(async () => {
    provider = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    server = await startServer({ dataDir, env: AUTOMATION_ENV });
    api = client(server, server.token);
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notes`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await server?.close();
    await provider?.close();
  });

  test('actions naming different OAuth2 endpoints are not offered; a member without the property needs no connection', () => {
    const oauth = (tokenUrl: string) => ({
      type: 'OAUTH2',
      displayName: 'Auth',
      required: true,
      authUrl: 'https://a.example/auth',
      tokenUrl,
      scope: ['x'],
    });
    const text = { type: 'SHORT_TEXT', displayName: 'Text', required: false };
    const piece = (second: string) => ({
      displayName: 'P',
      _actions: {
        one: { name: 'one', props: { authentication: oauth('https://a.example/token'), text } },
        two: { name: 'two', props: { auth2: oauth(second) } },
        plain: { name: 'plain', props: { text } },
      },
      _triggers: {},
    });
    const mixed = describePiece('p', '1.0.0', { p: piece('https://b.example/token') }, true);
    expect([mixed.auth, mixed.actions.map((a) => a.name)]).toEqual([[], ['plain']]);
    const same = describePiece('p', '1.0.0', { p: piece('https://a.example/token') }, true);
    expect(same.auth).toEqual([expect.objectContaining({ type: 'OAUTH2', scope: ['x'], pkce: false, validates: false })]);
    expect(same.actions.map((a) => [a.name, a.authProp, a.requireAuth, Object.keys(a.props)])).toEqual([
      ['one', 'authentication', true, ['text']],
      ['two', 'auth2', true, []],
      ['plain', undefined, false, ['text']],
    ]);
  });

  test('the catalogue lists the actions without the authentication field, with an OAuth2 connection', async () => {
    const kinds = (await api.get('/api/v1/automations/kinds')).body.actions as any[];
    const send = kinds.find((k) => k.type === `${PIECE}.send_note`);
    expect(send?.piece).toMatchObject({ name: PIECE, authTypes: ['OAUTH2'] });
    expect(Object.keys(send.parameters.properties.props.properties).sort()).toEqual(['note', 'url', 'workspace']);
    expect(send.parameters.properties.props.properties.workspace['x-options']).toEqual({ refreshers: [] });
    expect(send.parameters.required).toContain('connectionId');
    expect(kinds.find((k) => k.type === `${PIECE}.whoami`)).toBeDefined();
    const auth = (await api.get(`/api/v1/automations/pieces/${PIECE}/auth`)).body;
    expect(JSON.stringify(auth)).toContain('{base_url}/oauth/authorize');
  });

  test('the connection is made through consent; a step sends the token; options are read with it', async () => {
    const ws = server.workspaceId;
    const cookie = await signInCookie(provider);
    const oauthClient = await registerClient(provider, {
      type: 'confidential',
      name: 'Taskspace automations',
      redirectUris: [`${server.url}/api/v1/connections/oauth2/callback`],
    });
    const put = await api.put(`/api/v1/workspaces/${ws}/oauth2-apps/${PIECE}`, {
      clientId: oauthClient.id,
      clientSecret: oauthClient.clientSecret,
    });
    expect(put.status).toBe(200);
    const start = await api.post(`/api/v1/workspaces/${ws}/connections/oauth2`, {
      piece: PIECE,
      name: 'Provider',
      props: { base_url: provider.url },
    });
    expect(start.status).toBe(200);
    const url = new URL(start.body.item.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/oauth/authorize`);
    // The scopes of both actions; no PKCE (none declares it).
    expect(url.searchParams.get('scope')).toBe('read write');
    expect(url.searchParams.get('code_challenge')).toBeNull();
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
    expect((await call(server.url, 'GET', `${back.pathname}${back.search}`, { token: server.token })).status).toBe(200);
    const status = (await api.get(`/api/v1/workspaces/${ws}/connections/oauth2/${start.body.item.state}`)).body.item;
    expect(status).toEqual({ status: 'connected', connectionId: expect.any(String) });
    connectionId = status.connectionId;
    const { services } = server.built;
    const row = await services.store.run(
      services.store.sql.get<{ sealed: string }>('SELECT value_sealed AS sealed FROM connections WHERE id = ?', [connectionId]),
    );
    const token = JSON.parse(services.secretBox.open(row!.sealed)).access_token as string;
    expect(token).toEqual(expect.any(String));

    // The dropdown refreshed on `authentication` reads the provider with the connection's token.
    const options = await api.post(`/api/v1/automations/kinds/${PIECE}.send_note/options`, {
      workspaceId: ws,
      prop: 'workspace',
      connectionId,
    });
    expect([options.status, options.body.item?.options?.length]).toEqual([200, expect.any(Number)]);
    expect(options.body.item.options.length).toBeGreaterThan(0);
    const picked = options.body.item.options[0].value;

    // A step cannot fill the property itself.
    const filled = await api.post('/api/v1/automations', {
      workspaceId: ws,
      name: 'Own token',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'send', type: `${PIECE}.send_note`, connectionId, props: { url: receiverUrl, authentication: { access_token: 'x' } } },
      ],
    });
    expect(filled.status).toBe(400);

    const automation = await createAutomation(api, ws, {
      name: 'Send a note',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'send', type: `${PIECE}.send_note`, connectionId, props: { url: receiverUrl, note: 'hello', workspace: picked } },
        { id: 'who', type: `${PIECE}.whoami`, connectionId, props: {} },
      ],
    });
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect([run.status, run.steps[0].error, run.steps[1].error]).toEqual(['completed', undefined, undefined]);
    expect(run.steps[0].output).toEqual({ status: 204, hasData: true });
    expect(run.steps[1].output.workspaces.length).toBeGreaterThan(0);
    expect(received).toEqual([{ authorization: `Bearer ${token}`, body: JSON.stringify({ note: 'hello', workspace: picked }) }]);
    // The token is in no answer.
    expect(JSON.stringify(run)).not.toContain(token);
  });
});
