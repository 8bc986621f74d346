/**
 * The workflows `npm run test:n8n` imports into the real n8n. Node types of a package loaded
 * through N8N_CUSTOM_EXTENSIONS are named `CUSTOM.<node name>`.
 */

const CREDENTIALS = { taskspaceApi: { id: 'taskspaceHostCred01', name: 'Taskspace (test)' } };

/** A resource locator in ID mode. */
const byId = (value) => ({ __rl: true, mode: 'id', value });

function node(name, type, parameters, position, extra = {}) {
  return { id: name.toLowerCase().replace(/\W+/g, '-'), name, type, typeVersion: 1, position, parameters, ...extra };
}

/** Chains the action nodes: Project → Task (create, note) → Agent (create, knowledge, command) → Media upload. */
export function chainWorkflow({ id, workspaceId }) {
  const nodes = [
    node('Start', 'n8n-nodes-base.manualTrigger', {}, [0, 0]),
    node(
      'Create project',
      'CUSTOM.taskspaceProject',
      {
        resource: 'project',
        operation: 'create',
        createIn: 'folder',
        folderId: byId(workspaceId),
        content: '# n8n chain\n- Seed task',
      },
      [220, 0],
      { credentials: CREDENTIALS },
    ),
    node(
      'Create task',
      'CUSTOM.taskspaceTask',
      {
        resource: 'task',
        operation: 'create',
        projectId: byId('={{ $json.id }}'),
        content: '=Made by n8n in {{ $json.name }}',
        contentType: 'text/plain',
      },
      [440, 0],
      { credentials: CREDENTIALS },
    ),
    node(
      'Set note',
      'CUSTOM.taskspaceTask',
      {
        resource: 'note',
        operation: 'set',
        projectId: byId("={{ $('Create project').item.json.id }}"),
        taskId: byId('={{ $json.id }}'),
        value: 'Written by the n8n host test',
        type: 'text/plain',
      },
      [660, 0],
      { credentials: CREDENTIALS },
    ),
    node(
      'Create agent',
      'CUSTOM.taskspaceAgent',
      {
        resource: 'agent',
        operation: 'create',
        folderId: byId(workspaceId),
        name: 'n8n agent',
        agentData: {
          description: 'Made from n8n',
          commands: { command: [{ name: 'summarize', prompt: 'Summarize: [[input]]', mode: 'default' }] },
        },
      },
      [880, 0],
      { credentials: CREDENTIALS },
    ),
    node(
      'Add knowledge',
      'CUSTOM.taskspaceAgent',
      {
        resource: 'knowledge',
        operation: 'add',
        agentId: byId('={{ $json.id }}'),
        kind: 'project',
        projectId: byId("={{ $('Create project').item.json.id }}"),
      },
      [1100, 0],
      { credentials: CREDENTIALS },
    ),
    node(
      'Run command',
      'CUSTOM.taskspaceAgent',
      {
        resource: 'agent',
        operation: 'runCommand',
        agentId: byId('={{ $json.id }}'),
        command: 'summarize',
        input: "={{ $('Create task').item.json.text }}",
      },
      [1320, 0],
      { credentials: CREDENTIALS },
    ),
    {
      id: 'to-file',
      name: 'To file',
      type: 'n8n-nodes-base.convertToFile',
      typeVersion: 1.1,
      position: [1540, 0],
      parameters: { operation: 'toJson', mode: 'once', options: { fileName: 'conversation.json' } },
    },
    node(
      'Upload media',
      'CUSTOM.taskspaceMedia',
      {
        resource: 'media',
        operation: 'upload',
        folderId: byId(workspaceId),
        binaryPropertyName: 'data',
        options: { fileName: 'conversation.json' },
      },
      [1760, 0],
      { credentials: CREDENTIALS },
    ),
  ];
  const connections = {};
  for (let n = 0; n < nodes.length - 1; n++) {
    connections[nodes[n].name] = { main: [[{ node: nodes[n + 1].name, type: 'main', index: 0 }]] };
  }
  return { id, name: 'Taskspace chain', active: false, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

/**
 * "Continue (using error output)" and paging in a real n8n: the tasks of `projectId` ('good' and
 * 'bad') are read, each is fetched again ('bad' by an id that does not exist), and the main and
 * error outputs each write a marker task; the comments of `taskId` are read with Return All and
 * their count written once.
 */
export function routingWorkflow({ id, projectId, taskId }) {
  const missing = '00000000-0000-4000-8000-000000000000';
  const nodes = [
    node('Start', 'n8n-nodes-base.manualTrigger', {}, [0, 0]),
    node(
      'Read tasks',
      'CUSTOM.taskspaceTask',
      { resource: 'task', operation: 'getMany', projectId: byId(projectId), returnAll: true },
      [220, 0],
      { credentials: CREDENTIALS },
    ),
    node(
      'Fetch again',
      'CUSTOM.taskspaceTask',
      {
        resource: 'task',
        operation: 'get',
        projectId: byId(projectId),
        taskId: byId(`={{ $json.text === 'bad' ? '${missing}' : $json.id }}`),
      },
      [440, 0],
      { credentials: CREDENTIALS, onError: 'continueErrorOutput' },
    ),
    node(
      'Routed ok',
      'CUSTOM.taskspaceTask',
      {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: '=routed ok: {{ $json.text }}',
        contentType: 'text/plain',
      },
      [660, -100],
      { credentials: CREDENTIALS },
    ),
    node(
      'Routed error',
      'CUSTOM.taskspaceTask',
      {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: '=routed error: {{ $json.text }} {{ $json.error.code }} {{ $json.error.httpCode }}',
        contentType: 'text/plain',
      },
      [660, 100],
      { credentials: CREDENTIALS },
    ),
    node(
      'Read comments',
      'CUSTOM.taskspaceTask',
      { resource: 'comment', operation: 'getMany', projectId: byId(projectId), taskId: byId(taskId), returnAll: true },
      [220, 300],
      { credentials: CREDENTIALS },
    ),
    node(
      'Count comments',
      'CUSTOM.taskspaceTask',
      {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: '=comments: {{ $input.all().length }}',
        contentType: 'text/plain',
      },
      [440, 300],
      { credentials: CREDENTIALS, executeOnce: true },
    ),
  ];
  const to = (name) => [{ node: name, type: 'main', index: 0 }];
  const connections = {
    Start: { main: [[...to('Read tasks'), ...to('Read comments')]] },
    'Read tasks': { main: [to('Fetch again')] },
    'Fetch again': { main: [to('Routed ok'), to('Routed error')] },
    'Read comments': { main: [to('Count comments')] },
  };
  return { id, name: 'Taskspace routing', active: false, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

/** The trigger on `task.assigned`, with metadata, followed by a no-op. */
export function triggerWorkflow({ id, webhookId }) {
  return {
    id,
    name: 'Taskspace trigger',
    active: false,
    nodes: [
      node(
        'On assignment',
        'CUSTOM.taskspaceTrigger',
        {
          events: ['task.assigned'],
          workspaceIds: [],
          options: { includeMetadata: true },
        },
        [0, 0],
        { credentials: CREDENTIALS, webhookId },
      ),
      { id: 'done', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
    ],
    connections: { 'On assignment': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}

/** The credentials file for `n8n import:credentials` (plain data; n8n encrypts it on import). */
export function credentialsFile({ baseUrl, token }) {
  return [{ ...CREDENTIALS.taskspaceApi, type: 'taskspaceApi', data: { baseUrl, accessToken: token } }];
}

/** A project made through the OAuth2 credential `credential` ({ id, name }) in the workspace `workspaceId`. */
export function oauthWorkflow({ id, workspaceId, credential }) {
  return {
    id,
    name: 'Taskspace over OAuth2',
    active: false,
    nodes: [
      node('Start', 'n8n-nodes-base.manualTrigger', {}, [0, 0]),
      node(
        'Create project',
        'CUSTOM.taskspaceProject',
        {
          authentication: 'oAuth2',
          resource: 'project',
          operation: 'create',
          createIn: 'folder',
          folderId: byId(workspaceId),
          content: '# Made over OAuth2\n- Seed task',
        },
        [220, 0],
        { credentials: { taskspaceOAuth2Api: credential } },
      ),
    ],
    connections: { Start: { main: [[{ node: 'Create project', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    pinData: {},
  };
}
