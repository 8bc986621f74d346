import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Personal access token credentials for a Taskspace service.
 *
 * Every request carries `Authorization: Bearer <token>` (spec section 5.1); the
 * credential test calls `GET /api/v1/workspaces`, which any valid token may read.
 */
export class TaskspaceApi implements ICredentialType {
	name = 'taskspaceApi';

	displayName = 'Taskspace API';

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
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'A personal access token. The first start of the service prints the owner\'s token; more are created with "npx taskspace token create &lt;handle&gt;".',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/workspaces',
			method: 'GET',
		},
	};
}
