import { client, startServer, type TestServer } from '../helpers/server';

/** docs/oauth.md "Registering a client": redirect URIs follow RFC 8252 (https, loopback http, private-use schemes). */
describe('OAuth client redirect URIs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const register = (redirectUris: string[]) =>
    client(server, server.token).post(`/api/v1/workspaces/${server.workspaceId}/oauth-clients`, {
      name: 'App',
      redirectUris,
      type: 'public',
    });

  it('refuses http on a non-loopback host and schemes that are neither https, loopback http nor private-use', async () => {
    const refused: [string, string][] = [
      ['http://app.example.org/callback', 'http_not_loopback'],
      ['http://10.0.0.5:8080/cb', 'http_not_loopback'],
      ['http://127.0.0.1.example.org/cb', 'http_not_loopback'],
      ['ws://app.example.org/cb', 'refused_scheme'],
      ['wss://app.example.org/cb', 'refused_scheme'],
      ['ftp://app.example.org/cb', 'refused_scheme'],
      ['mailto:someone@example.org', 'refused_scheme'],
      ['myapp:/callback', 'refused_scheme'],
      ['javascript:alert(1)', 'refused_scheme'],
    ];
    for (const [uri, reason] of refused) {
      const res = await register(['https://ok.example.org/cb', uri]);
      expect({ uri, status: res.status, code: res.body.code, details: res.body.error?.details }).toEqual({
        uri,
        status: 400,
        code: 'VALIDATION_ERROR',
        details: { field: 'redirectUris[1]', reason },
      });
      expect(res.body.message).toMatch(/redirectUris\[1\]/);
    }
  });

  it('accepts https, loopback http (127.0.0.1, [::1], localhost) and reverse-domain private-use schemes', async () => {
    const accepted = [
      'https://app.example.org/callback',
      'http://127.0.0.1:9000/cb',
      'http://[::1]:8080/cb',
      'http://localhost:3000/cb',
      'com.example.app:/callback',
    ];
    const res = await register(accepted);
    expect(res.status).toBe(200);
    expect(res.body.item.redirectUris).toEqual(accepted);
  });
});
