import type { INodeCredentialDescription, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** Both credential types, each shown for its value of `authentication`. */
export const credentialDescriptions: INodeCredentialDescription[] = [
	{
		name: 'taskspaceApi',
		required: true,
		displayOptions: { show: { authentication: ['accessToken'] } },
	},
	{
		name: 'taskspaceOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];

/** The authentication selector every Taskspace node starts with. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'accessToken' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'accessToken',
};

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** What a resource locator needs to know about the thing it locates. */
interface LocatorSpec {
	displayName: string;
	name: string;
	/** List search method of the node (`methods.listSearch`). */
	searchListMethod: string;
	/** Path segment preceding the id in Taskspace URLs (a regex alternative is allowed). */
	urlSegment: string;
	/** Regex of a valid id (default: any path segment). */
	idPattern?: string;
	example: string;
}

/**
 * A resource locator with three modes: from a searchable list, by URL (any Taskspace URL
 * containing `/<segment>/<id>`, e.g. the `projectLink` of events), and by ID.
 */
function locator(spec: LocatorSpec, overrides: Partial<INodeProperties>): INodeProperties {
	const idPattern = spec.idPattern ?? '[^/?#]+';
	const urlRegex = `https?://.+/${spec.urlSegment}/(${idPattern})`;
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${spec.displayName.toLowerCase()}...`,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. http://127.0.0.1:8787/api/v1/${spec.example}`,
				extractValue: { type: 'regex', regex: urlRegex },
				validation: [
					{
						type: 'regex',
						properties: { regex: `${urlRegex}.*`, errorMessage: 'Not a Taskspace URL with this kind of ID' },
					},
				],
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${spec.example.split('/').pop()}`,
				validation: [
					{ type: 'regex', properties: { regex: `^${idPattern}$`, errorMessage: 'Not a valid ID' } },
				],
			},
		],
		...overrides,
	};
}

/** Resource locator for a folder (a workspace's home folder has the workspace's id). */
export function folderLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Folder',
			name: 'folderId',
			searchListMethod: 'searchFolders',
			urlSegment: '(?:folders|workspaces)',
			example: 'folders/abc123',
		},
		{ description: 'Folder, or workspace (its home folder), to work in', ...overrides },
	);
}

/** Resource locator for a workspace. */
export function workspaceLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Workspace',
			name: 'workspaceId',
			searchListMethod: 'searchWorkspaces',
			urlSegment: 'workspaces',
			example: 'workspaces/abc123',
		},
		overrides,
	);
}

/** Resource locator for a project; the URL mode accepts the `projectLink` of events. */
export function projectLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Project',
			name: 'projectId',
			searchListMethod: 'searchProjects',
			urlSegment: 'projects',
			example: 'projects/abc123',
		},
		overrides,
	);
}

/** Resource locator for a task of the selected project. */
export function taskLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Task',
			name: 'taskId',
			searchListMethod: 'searchTasks',
			urlSegment: 'tasks',
			idPattern: UUID,
			example: 'projects/abc123/tasks/0b6f3c1e-8d2a-4c55-9a51-2f0b1f1d8e7a',
		},
		overrides,
	);
}

/** Resource locator for an agent. */
export function agentLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Agent',
			name: 'agentId',
			searchListMethod: 'searchAgents',
			urlSegment: 'agents',
			example: 'agents/abc123',
		},
		overrides,
	);
}

/** "Return All" and "Limit" for a list operation (limit up to `max`). */
export function returnAllAndLimit(max = 500): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: max },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Resource locator for a media file (Media operations; Agent knowledge of kind media). */
export function mediaLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Media',
			name: 'mediaId',
			searchListMethod: 'searchMedia',
			urlSegment: 'medias',
			example: 'medias/abc123',
		},
		overrides,
	);
}

/** The media locator as the Media operations and Agent knowledge use it. */
export const mediaIdProperty: INodeProperties = mediaLocator();

/** Resource locator for an automation (of the picked workspace, or of any). */
export function automationLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Automation',
			name: 'automationId',
			searchListMethod: 'searchAutomations',
			urlSegment: 'automations',
			example: 'automations/abc123',
		},
		overrides,
	);
}

/** Resource locator for a run of the selected automation. */
export function runLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Run',
			name: 'runId',
			searchListMethod: 'searchRuns',
			urlSegment: 'runs',
			example: 'automations/abc123/runs/def456',
		},
		overrides,
	);
}

/** Resource locator for a conversation of the selected agent. */
export function conversationLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return locator(
		{
			displayName: 'Conversation',
			name: 'convoId',
			searchListMethod: 'searchConversations',
			urlSegment: 'convos',
			example: 'agents/abc123/convos/def456',
		},
		overrides,
	);
}

/** Content type of task and project content. */
export const contentTypeProperty: INodeProperties = {
	displayName: 'Content Type',
	name: 'contentType',
	type: 'options',
	options: [
		{ name: 'Markdown', value: 'text/markdown' },
		{ name: 'Plain Text', value: 'text/plain' },
	],
	default: 'text/plain',
};

/** The four insertion positions relative to a reference task. */
export const positionOptions = [
	{ name: 'After (Next Sibling)', value: 'afterend', description: 'Right after the reference task' },
	{ name: 'Before (Previous Sibling)', value: 'beforebegin', description: 'Right before the reference task' },
	{ name: 'First Child', value: 'afterbegin', description: 'As the first subtask of the reference task' },
	{ name: 'Last Child', value: 'beforeend', description: 'As the last subtask of the reference task' },
];

/**
 * The IANA time zones of the runtime (`Intl.supportedValuesOf('timeZone')`, read when the node
 * description is built), with UTC, sorted by name: the options of a time zone parameter.
 */
export function timeZoneOptions(): INodePropertyOptions[] {
	const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
	const zones = [...new Set([...supported, 'UTC'])].sort((a, b) => a.localeCompare(b));
	return zones.map((zone) => ({ name: zone.replace(/_/g, ' '), value: zone }));
}
