import { escapeHtml } from '../../http/public-pages';
import { AUTHORIZATION_PARAM_NAMES, type AuthorizationParams } from './authorization-request';
import type { ClientRecord } from './clients';
import { OAUTH_SCOPES, type OAuthScope } from '../../auth/scopes';

/**
 * The consent page's HTML (docs/oauth.md "Consent"): names the app, the workspace that
 * registered it, where it sends the browser back, who is signed in and each requested scope,
 * with Allow and Deny buttons posting back to `/oauth/authorize`.
 */
export function consentBody(input: {
  client: ClientRecord;
  workspaceName: string;
  redirectUri: string;
  handle: string;
  scopes: readonly OAuthScope[];
  params: AuthorizationParams;
}): string {
  const { client, workspaceName, redirectUri, handle, scopes, params } = input;
  const target = new URL(redirectUri);
  const hidden = AUTHORIZATION_PARAM_NAMES.filter((name) => params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name]!)}">`)
    .join('');
  const scopeItems = scopes.map((scope) => `<li><strong>${scope}</strong>: ${escapeHtml(OAUTH_SCOPES[scope])}</li>`).join('');
  return (
    `<p><strong>${escapeHtml(client.name)}</strong> (registered in the workspace ${escapeHtml(workspaceName)}) asks to use Taskspace as <strong>@${escapeHtml(handle)}</strong>.</p>` +
    `<p>It will be able to:</p><ul class="scopes">${scopeItems}</ul>` +
    `<p>Only in the workspaces you belong to, with your role in each. You can revoke this at any time under My account → Authorized apps.</p>` +
    `<p>Allowing sends you back to <strong>${escapeHtml(target.host || target.protocol)}</strong>.</p>` +
    `<form method="post" action="/oauth/authorize">${hidden}<div class="actions">` +
    `<button type="submit" name="decision" value="allow">Allow</button>` +
    `<button type="submit" name="decision" value="deny">Deny</button></div></form>`
  );
}
