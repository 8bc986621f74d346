import { escapeHtml } from '../../http/public-pages';
import { AUTHORIZATION_PARAM_NAMES, type AuthorizationParams } from './authorization-request';
import type { ClientRecord } from './clients';
import { isClientIdUrl } from './metadata-document';
import { OAUTH_SCOPES, type OAuthScope } from '../../auth/scopes';

/**
 * The consent page's HTML (docs/oauth.md "Consent"): names the app, the workspace that
 * registered it — or, for a self-registered app (RFC 7591), says plainly that nobody verified it
 * and shows the full redirect URI it uses; for an app identified by a URL (a Client ID Metadata
 * Document), also the host that published its details —, the resource asked for (RFC 8707), where it sends
 * the browser back, who is signed in and each requested scope, with Allow and Deny buttons
 * posting back to `/oauth/authorize`.
 */
export function consentBody(input: {
  client: ClientRecord;
  /** The registering workspace's name; null for a self-registered app. */
  workspaceName: string | null;
  redirectUri: string;
  /** The canonical URI of the resource asked for, if any. */
  resource?: string;
  handle: string;
  scopes: readonly OAuthScope[];
  params: AuthorizationParams;
}): string {
  const { client, workspaceName, redirectUri, handle, scopes, params, resource } = input;
  const target = new URL(redirectUri);
  const hidden = AUTHORIZATION_PARAM_NAMES.filter((name) => params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name]!)}">`)
    .join('');
  const scopeItems = scopes.map((scope) => `<li><strong>${scope}</strong>: ${escapeHtml(OAUTH_SCOPES[scope])}</li>`).join('');
  const documentHost = isClientIdUrl(client.id) ? new URL(client.id).host : undefined;
  const origin = documentHost
    ? `<p class="warning"><strong>This app is unverified.</strong> Its name and details come from a document published at <strong>${escapeHtml(documentHost)}</strong> (<code>${escapeHtml(client.id)}</code>); nobody here vouches for it. Allow it only if you are connecting it yourself right now. It sends you back to <code>${escapeHtml(redirectUri)}</code>.</p>`
    : workspaceName === null
      ? `<p class="warning"><strong>This app is unverified.</strong> It registered itself with this Taskspace; nobody here vouches for it or its name. Allow it only if you are connecting it yourself right now. It sends you back to <code>${escapeHtml(redirectUri)}</code>.</p>`
      : '';
  const registered = documentHost
    ? ` (unverified, described by ${escapeHtml(documentHost)})`
    : workspaceName === null
      ? ' (unverified, self-registered)'
      : ` (registered in the workspace ${escapeHtml(workspaceName)})`;
  const resourceLine = resource
    ? `<p>It asks for a token for <code>${escapeHtml(resource)}</code>${resource.endsWith('/mcp') ? ' (Taskspace’s MCP endpoint, for AI assistants)' : ''}.</p>`
    : '';
  return (
    origin +
    `<p><strong>${escapeHtml(client.name)}</strong>${registered} asks to use Taskspace as <strong>@${escapeHtml(handle)}</strong>.</p>` +
    resourceLine +
    `<p>It will be able to:</p><ul class="scopes">${scopeItems}</ul>` +
    `<p>Only in the workspaces you belong to, with your role in each. You can revoke this at any time under My account → Authorized apps.</p>` +
    `<p>Allowing sends you back to <strong>${escapeHtml(target.host || target.protocol)}</strong>.</p>` +
    `<form method="post" action="/oauth/authorize">${hidden}<div class="actions">` +
    `<button type="submit" name="decision" value="allow">Allow</button>` +
    `<button type="submit" name="decision" value="deny">Deny</button></div></form>`
  );
}
