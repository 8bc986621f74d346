import { client, startServer, type Reply, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, basic, issueTokensWithClient, postForm, signInCookie } from './helpers';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../server/src/modules/oauth/model';

/** docs/oauth.md "Refresh token rotation and reuse detection": concurrent refreshes and the grace period. */
describe('OAuth refresh token reuse grace period', () => {
  let now = Date.parse('2026-06-01T00:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer({ clock, env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    cookie = await signInCookie(server);
  });
  afterAll(() => server.close());

  async function family() {
    const { tokens, app } = await issueTokensWithClient(server, cookie, 'read');
    const creds = basic(app.id, app.clientSecret!);
    const refresh = (token: string): Promise<Reply> =>
      postForm(server, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token }, creds);
    return { tokens, refresh, creds };
  }
  const works = async (accessToken: string) => (await client(server, accessToken).get('/api/v1/me')).status === 200;

  it('six concurrent refreshes with one token: the tokens issued keep working', async () => {
    const { tokens, refresh } = await family();
    const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(tokens.refresh_token)));
    const issued = answers.filter((a) => a.status === 200).map((a) => a.body as { access_token: string; refresh_token: string });
    expect(issued.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer.body.error).toBe('invalid_grant');
    for (const pair of issued) {
      expect(await works(pair.access_token)).toBe(true);
    }
    // Each successor refresh token is live: the family was not revoked.
    const next = await refresh(issued[0]!.refresh_token);
    expect(next.status).toBe(200);
    expect(await works(next.body.access_token)).toBe(true);
    expect(await works(issued[issued.length - 1]!.access_token)).toBe(true);
  });

  it('a reuse within the grace period gets a fresh pair; after it, reuse revokes the family', async () => {
    const { tokens, refresh } = await family();
    const first = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    now += (REFRESH_REUSE_GRACE_SECONDS - 1) * 1000;
    const again = await refresh(tokens.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(await works(first.body.access_token)).toBe(true);
    expect(await works(again.body.access_token)).toBe(true);

    now += 2000; // past the grace period of the first rotation
    const stolen = await refresh(tokens.refresh_token);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
    expect(await works(first.body.access_token)).toBe(false);
    expect(await works(again.body.access_token)).toBe(false);
    expect((await refresh(again.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('the grace period never revives a revoked family', async () => {
    const { tokens, refresh, creds } = await family();
    const first = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    // The app (or RFC 7009) revokes the newest refresh token, and with it the family.
    expect((await postForm(server, '/oauth/revoke', { token: first.body.refresh_token }, creds)).status).toBe(200);
    const replay = await refresh(tokens.refresh_token);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await works(first.body.access_token)).toBe(false);
  });
});
