/**
 * Runs the package's nodes through n8n's own execution engine (n8n-core's `WorkflowExecute`,
 * which builds the real `ExecuteContext` with its parameter resolution, HTTP helpers,
 * binary-data helpers and error handling) against a real Taskspace server over HTTP.
 *
 * What is ours here is only what the n8n server process would supply around the engine: the
 * node-type registry (our node classes), the credential store (decrypted credentials by type)
 * and the credential `authenticate` step (resolving `IAuthenticateGeneric` with n8n's own
 * expression engine, as n8n's CredentialsHelper does).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// n8n-core reads its instance settings (encryption key, folders) and keeps binary data under
// N8N_USER_FOLDER: a temporary folder per test file, removed after the suite.
let temporaryUserFolder: string | undefined;
if (!process.env.N8N_USER_FOLDER) {
  temporaryUserFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-n8n-'));
  process.env.N8N_USER_FOLDER = temporaryUserFolder;
}

import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
  IAuthenticateGeneric,
  IBinaryData,
  ICredentialDataDecryptedObject,
  ICredentialType,
  IDataObject,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeParameters,
  INodeType,
  INodeTypes,
  IRun,
  IRunExecutionData,
  IVersionedNodeType,
  IWorkflowExecuteAdditionalData,
  Workflow as WorkflowType,
} from 'n8n-workflow';
import { createDeferredPromise, ICredentialsHelper, Workflow } from 'n8n-workflow';

import { TaskspaceApi } from '../../credentials/TaskspaceApi.credentials';
import { startServer, type TestServer } from '../helpers/server';
import { TaskspaceOAuth2Api } from '../../credentials/TaskspaceOAuth2Api.credentials';
import { TaskspaceAgent } from '../../nodes/Agent/TaskspaceAgent.node';
import { TaskspaceAutomation } from '../../nodes/Automation/TaskspaceAutomation.node';
import { TaskspaceMedia } from '../../nodes/Media/TaskspaceMedia.node';
import { TaskspaceProject } from '../../nodes/Project/TaskspaceProject.node';
import { TaskspaceTask } from '../../nodes/Task/TaskspaceTask.node';
import { TaskspaceTrigger } from '../../nodes/TaskspaceTrigger/TaskspaceTrigger.node';

/** Node types of the package, by the type name a workflow uses. */
export const NODE_TYPES: Record<string, INodeType> = {
  'n8n-nodes-taskspace.taskspaceProject': new TaskspaceProject(),
  'n8n-nodes-taskspace.taskspaceTask': new TaskspaceTask(),
  'n8n-nodes-taskspace.taskspaceAgent': new TaskspaceAgent(),
  'n8n-nodes-taskspace.taskspaceMedia': new TaskspaceMedia(),
  'n8n-nodes-taskspace.taskspaceAutomation': new TaskspaceAutomation(),
  'n8n-nodes-taskspace.taskspaceTrigger': new TaskspaceTrigger(),
};

const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
  taskspaceApi: new TaskspaceApi(),
  taskspaceOAuth2Api: new TaskspaceOAuth2Api(),
};

class NodeTypes implements INodeTypes {
  getByName(type: string): INodeType | IVersionedNodeType {
    return this.get(type);
  }

  getByNameAndVersion(type: string): INodeType {
    return this.get(type);
  }

  getKnownTypes() {
    return {};
  }

  private get(type: string): INodeType {
    // n8n's AI-tool variant of a node: the same node under `<type>Tool` (as n8n converts it).
    const nodeType = NODE_TYPES[type] ?? NODE_TYPES[type.replace(/Tool$/, '')];
    if (!nodeType) throw new Error(`unknown node type ${type}`);
    return nodeType;
  }
}

/** The credential store: decrypted data by credential type; `authenticate` as n8n applies it. */
class CredentialsHelper extends ICredentialsHelper {
  constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
    super();
  }

  getParentTypes(name: string): string[] {
    return CREDENTIAL_TYPES[name]?.extends ?? [];
  }

  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
    requestOptions: IHttpRequestOptions,
    workflow: WorkflowType,
    node: INode,
  ): Promise<IHttpRequestOptions> {
    const authenticate = CREDENTIAL_TYPES[typeName]?.authenticate as IAuthenticateGeneric | undefined;
    if (!authenticate || typeof authenticate === 'function' || authenticate.type !== 'generic') return requestOptions;
    const resolve = (value: string) =>
      String(
        workflow.expression.getSimpleParameterValue(node, value, 'internal', {
          $credentials: credentials,
        } as never),
      );
    const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
    for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) {
      headers[name] = resolve(String(value));
    }
    return { ...requestOptions, headers };
  }

  async preAuthentication() {
    return undefined;
  }

  async getCredentials(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async getDecrypted(_data: unknown, _nodeCredentials: unknown, type: string): Promise<ICredentialDataDecryptedObject> {
    const found = this.credentials[type];
    if (!found) throw new Error(`no credentials of type ${type}`);
    return { ...found };
  }

  async updateCredentials() {}

  async updateCredentialsOauthTokenData() {}

  getCredentialsProperties() {
    return [];
  }
}

/** n8n-core's own dependency-injection container (its copy of @n8n/di, not another one in the tree). */
const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] })) as {
  Container: { get<T>(type: new (...args: never[]) => T): T };
};

// n8n-core internals the n8n server shuts down on exit (not part of n8n-core's index).
const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager') as {
  SSHClientsManager: new () => { onShutdown(): void };
};

/**
 * Stops what n8n-core started during executions (its SSH client sweeper interval), as the n8n
 * server does on shutdown, so the test process can exit.
 */
export function shutdownN8nCore(): void {
  Container.get(SSHClientsManager).onShutdown();
}

/**
 * Jest setup for a suite: a fresh Taskspace server before all tests, and after all tests the
 * server closed and n8n-core shut down. Returns a getter for the server.
 */
export function useTaskspaceServer(opts: { env?: Record<string, string> } = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(opts);
  });
  afterAll(async () => {
    await server?.close();
    shutdownN8nCore();
    if (temporaryUserFolder) fs.rmSync(temporaryUserFolder, { recursive: true, force: true });
  });
  return () => {
    if (!server) throw new Error('server not started');
    return server;
  };
}

let binaryReady: Promise<void> | undefined;

/** Binary data kept in memory (n8n's "default" mode), as in n8n's own node tests. */
function initBinaryData(): Promise<void> {
  binaryReady ??= Container.get(BinaryDataService).init();
  return binaryReady;
}

/** Connection details for one Taskspace server. */
export interface Connection {
  url: string;
  token: string;
}

/** One node run: the node's parameters, its input items and how it handles failures. */
export interface RunOptions {
  type?: keyof typeof NODE_TYPES | string;
  parameters: INodeParameters;
  input?: INodeExecutionData[];
  continueOnFail?: boolean;
  /** n8n's "On Error" setting of the node. */
  onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
  /** Workflow timezone (settings.timezone). */
  timezone?: string;
}

/** What a run produced: the node's output items, or the error that stopped it. */
export interface RunResult {
  items: INodeExecutionData[];
  /** Items n8n routed to the node's error output (with `onError: 'continueErrorOutput'`). */
  errorItems: INodeExecutionData[];
  error?: Error & { httpCode?: string | null; description?: string | null; context?: IDataObject };
  run: IRun;
}

/** A one-node workflow and the "additional data" n8n passes to every context. */
export interface Setup {
  node: INode;
  workflow: WorkflowType;
  additionalData: IWorkflowExecuteAdditionalData;
  hooks: ExecutionLifecycleHooks;
}

/**
 * Builds a workflow holding one node of the package (credentials pointing at `connection`)
 * and the additional data n8n would pass; `webhookBaseUrl` sets where webhooks live.
 */
export function setup(connection: Connection, options: RunOptions & { webhookBaseUrl?: string }): Setup {
  const node: INode = {
    id: 'node-under-test',
    name: 'Taskspace',
    type: options.type ?? 'n8n-nodes-taskspace.taskspaceTask',
    typeVersion: 1,
    position: [0, 0],
    parameters: options.parameters,
    credentials: {
      taskspaceApi: { id: '1', name: 'Taskspace' },
    },
    continueOnFail: options.continueOnFail ?? false,
    ...(options.onError ? { onError: options.onError } : {}),
  };
  const workflow = new Workflow({
    id: 'test',
    name: 'test',
    nodes: [node],
    connections: {},
    nodeTypes: new NodeTypes(),
    settings: options.timezone ? { timezone: options.timezone } : {},
    active: false,
  });
  const hooks = new ExecutionLifecycleHooks('manual', '1', {
    id: 'test',
    name: 'test',
    nodes: [node],
    connections: {},
    active: false,
    activeVersionId: null,
    isArchived: false,
    createdAt: new Date(),
    updatedAt: new Date(),
    settings: {},
  } as never);
  const base = options.webhookBaseUrl ?? 'http://localhost:5678/webhook';
  const additionalData = {
    executionId: '1',
    hooks,
    credentialsHelper: new CredentialsHelper({
      taskspaceApi: { baseUrl: connection.url, accessToken: connection.token },
    }),
    restApiUrl: 'http://localhost:5678/rest',
    instanceBaseUrl: 'http://localhost:5678/',
    webhookBaseUrl: base,
    webhookWaitingBaseUrl: `${base}-waiting`,
    webhookTestBaseUrl: `${base}-test`,
    formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
    currentNodeParameters: undefined,
    variables: {},
    setExecutionStatus: () => {},
    sendDataToUI: () => {},
  } as unknown as IWorkflowExecuteAdditionalData;
  return { node, workflow, additionalData, hooks };
}

/**
 * Executes one node of the package with `WorkflowExecute`, feeding it `input` (default: one
 * empty item), and returns its output. Credentials point at `connection`.
 */
export async function runNode(connection: Connection, options: RunOptions): Promise<RunResult> {
  await initBinaryData();
  const { node, workflow, additionalData, hooks } = setup(connection, options);
  const done = createDeferredPromise<IRun>();
  hooks.addHandler('workflowExecuteAfter', (run) => done.resolve(run));
  const runExecutionData: IRunExecutionData = {
    resultData: { runData: {} },
    executionData: {
      contextData: {},
      metadata: {},
      waitingExecution: {},
      waitingExecutionSource: null,
      nodeExecutionStack: [{ node, data: { main: [options.input ?? [{ json: {} }]] }, source: null }],
    },
  } as unknown as IRunExecutionData;
  const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
  await execute.processRunExecutionData(workflow);
  const run = await done.promise;
  const task = run.data.resultData.runData[node.name]?.[0];
  const items = (task?.data?.main?.[0] ?? []) as INodeExecutionData[];
  const errorItems = (task?.data?.main?.[1] ?? []) as INodeExecutionData[];
  return { items, errorItems, error: (task?.error ?? run.data.resultData.error) as RunResult['error'], run };
}

/** Runs a node and fails the test with the node's error if it stopped. */
export async function runOk(connection: Connection, options: RunOptions): Promise<INodeExecutionData[]> {
  const result = await runNode(connection, options);
  if (result.error) {
    throw new Error(`node failed: ${result.error.message} (${result.error.description ?? ''})`);
  }
  return result.items;
}

/** The bytes of an output binary item, wherever n8n's binary data service stored them. */
export async function binaryBytes(binary: IBinaryData): Promise<Buffer> {
  return await Container.get(BinaryDataService).getAsBuffer(binary);
}

/** A resource locator value in ID mode. */
export function byId(value: string) {
  return { __rl: true, mode: 'id', value };
}

/** A resource locator value in URL mode. */
export function byUrl(value: string) {
  return { __rl: true, mode: 'url', value };
}
