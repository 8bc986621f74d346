import { dbOf } from './db';
import { client, type TestServer } from './server';

/** Small helpers for the task suites: projects, tasks and the outbox. */

/** A task as the API returns it. */
export interface ApiTask {
  id: string;
  text: string;
  completed: boolean;
  parentId?: string;
}

/** Creates a project through `POST /api/v1/workspaces/{workspaceId}/projects` and returns its id. */
export async function newProject(
  server: TestServer,
  name = 'Tasks',
  workspaceId = server.workspaceId,
  token = server.token,
): Promise<string> {
  const res = await client(server, token).post(`/api/v1/workspaces/${workspaceId}/projects`, {
    contentType: 'text/markdown',
    content: `# ${name}`,
  });
  if (res.status !== 200) throw new Error(`project create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.item.id as string;
}

/** Marks a project completed through `POST /api/v1/projects/{projectId}/complete`. */
export async function completeProject(server: TestServer, projectId: string): Promise<void> {
  const res = await client(server, server.token).post(`/api/v1/projects/${projectId}/complete`);
  if (res.status !== 200) throw new Error(`project complete failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A create-body task: a plain string is markdown content appended at the end. */
export type TaskSpec = string | { content: string; contentType?: string; taskId?: string | null; placement?: string };

/** Creates tasks with one request as the owner (or `token`) and returns the created items. */
export async function addTasks(server: TestServer, projectId: string, specs: TaskSpec[], token = server.token): Promise<ApiTask[]> {
  const tasks = specs.map((s) =>
    typeof s === 'string' ? { contentType: 'text/markdown', content: s } : { contentType: 'text/markdown', ...s },
  );
  const res = await client(server, token).post(`/api/v1/projects/${projectId}/tasks/`, { tasks });
  if (res.status !== 200) throw new Error(`task create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.item as ApiTask[];
}

/** Every task of a project in document order (pages of 500). */
export async function allTasks(server: TestServer, projectId: string): Promise<ApiTask[]> {
  const out: ApiTask[] = [];
  for (;;) {
    const after = out.length ? `&after=${out[out.length - 1]!.id}` : '';
    const res = await client(server, server.token).get(`/api/v1/projects/${projectId}/tasks?limit=500${after}`);
    if (res.status !== 200) throw new Error(`task list failed: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...(res.body.items as ApiTask[]));
    if (res.body.items.length < 500) return out;
  }
}

/** The texts of a project's tasks in document order. */
export async function texts(server: TestServer, projectId: string): Promise<string[]> {
  return (await allTasks(server, projectId)).map((t) => t.text);
}

/** An outbox event as stored. */
export interface StoredEvent {
  type: string;
  workspaceId: string;
  payload: Record<string, any>;
  depth: number;
}

/** Events of `type` in the outbox, oldest first, read through the server's own store. */
export async function eventsOf(server: TestServer, type: string): Promise<StoredEvent[]> {
  const rows = await dbOf(server).all<{ type: string; workspaceId: string; payload: string; depth: number }>(
    'SELECT type, workspace_id AS "workspaceId", payload_json AS payload, depth FROM events WHERE type = ? ORDER BY seq',
    type,
  );
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, any> }));
}

/** A uuid no task has. */
export const UNKNOWN_TASK = '00000000-0000-4000-8000-000000000000';
