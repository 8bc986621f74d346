import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * OAuth 2.0 (authorization code) credentials for a Taskspace service (docs/oauth.md, "n8n").
 *
 * The authorization and token endpoints are derived from the base URL
 * (`<base>/oauth/authorize`, `<base>/oauth/token`). Register n8n in Taskspace under
 * Settings → OAuth apps as a confidential app with the redirect URI
 * `<n8n>/rest/oauth2-credential/callback`, then paste its client ID and secret here. The
 * credential asks for every scope the nodes use (read, write, and webhooks for the Trigger);
 * requests carry the access token as `Authorization: Bearer <token>`, refreshed by n8n.
 */
export class TaskspaceOAuth2Api implements ICredentialType {
	name = 'taskspaceOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Taskspace OAuth2 API';

	icon: Icon = { light: 'file:../icons/taskspace.svg', dark: 'file:../icons/taskspace.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-taskspace#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8787',
			placeholder: 'e.g. https://taskspace.example.com',
			description: 'Address of the Taskspace service, without the /api/v1 suffix',
			required: true,
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"].replace(/\\/+$/, "")}}/oauth/authorize',
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"].replace(/\\/+$/, "")}}/oauth/token',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: 'read write webhooks',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];
}
