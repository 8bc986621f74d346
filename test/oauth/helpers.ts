import { createHash, randomBytes } from 'node:crypto';
import { call, type Reply, type TestServer } from '../helpers/server';

/** The bootstrap owner's password in the OAuth suites' servers. */
export const OWNER_PASSWORD = 'owner password 1';

/** Signs in over HTTP; returns the `taskspace_session=…` cookie pair. */
export async function signInCookie(server: { url: string }, login = 'owner', password = OWNER_PASSWORD): Promise<string> {
  const res = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('taskspace_session='))!;
  return raw.split(';')[0]!;
}

/** A PKCE verifier and its S256 challenge (RFC 7636 section 4.1–4.2). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** POSTs an application/x-www-form-urlencoded body. */
export function postForm(
  server: { url: string },
  urlPath: string,
  fields: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
  return call(server.url, 'POST', urlPath, {
    rawBody: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** The query string of an authorization request. */
export function authorizeQuery(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/oauth/authorize?${query}`;
}

/** The hidden fields of the consent page's form, as a browser would post them. */
export function consentFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
  return fields;
}

/** Registers an OAuth client in the server's workspace with the owner's token. */
export async function registerClient(
  server: TestServer,
  input: { name?: string; redirectUris?: string[]; type: 'confidential' | 'public' },
): Promise<{ id: string; clientSecret?: string; redirectUri: string }> {
  const redirectUris = input.redirectUris ?? ['https://app.example.org/callback'];
  const res = await call(server.url, 'POST', `/api/v1/workspaces/${server.workspaceId}/oauth-clients`, {
    token: server.token,
    body: { name: input.name ?? 'Example app', redirectUris, type: input.type },
  });
  if (res.status !== 200) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.item.id, clientSecret: res.body.item.clientSecret, redirectUri: redirectUris[0]! };
}

/**
 * Runs the browser part of the code flow over HTTP as a signed-in person: opens the authorize
 * URL, approves on the consent page (unless a remembered grant skips it) and returns the
 * redirect's query.
 */
export async function authorize(
  server: { url: string },
  cookie: string,
  params: Record<string, string | undefined>,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URLSearchParams> {
  const page = await call(server.url, 'GET', authorizeQuery({ response_type: 'code', ...params }), { headers: { cookie } });
  let location: string | undefined;
  if (page.status === 302) location = page.headers.location as string;
  else {
    if (page.status !== 200) throw new Error(`consent page: ${page.status} ${String(page.body)}`);
    const answer = await postForm(
      server,
      '/oauth/authorize',
      { ...consentFields(page.body as string), decision },
      { cookie, origin: server.url },
    );
    if (answer.status !== 302) throw new Error(`consent answer: ${answer.status} ${String(answer.body)}`);
    location = answer.headers.location as string;
  }
  return new URL(location).searchParams;
}

/** Exchanges a code at the token endpoint. */
export function exchangeCode(
  server: { url: string },
  fields: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return postForm(server, '/oauth/token', { grant_type: 'authorization_code', ...fields }, headers);
}

/** An HTTP Basic header for client credentials (RFC 6749 section 2.3.1). */
export function basic(id: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}

/** The token endpoint's answer to a code or refresh grant. */
export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** Registers a confidential client and runs the whole flow for `scope`; returns the token answer and the client. */
export async function issueTokensWithClient(
  server: TestServer,
  cookie: string,
  scope: string,
): Promise<{ tokens: TokenAnswer; app: { id: string; clientSecret?: string; redirectUri: string } }> {
  const app = await registerClient(server, { type: 'confidential' });
  const query = await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri, scope });
  const res = await exchangeCode(server, { code: query.get('code')!, redirect_uri: app.redirectUri }, basic(app.id, app.clientSecret!));
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { tokens: res.body, app };
}

/** Registers a confidential client and runs the whole flow for `scope`; returns the token answer. */
export async function issueTokens(server: TestServer, cookie: string, scope: string): Promise<TokenAnswer> {
  return (await issueTokensWithClient(server, cookie, scope)).tokens;
}
