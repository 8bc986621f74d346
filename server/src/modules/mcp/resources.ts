import type { FastifyInstance } from 'fastify';
import { getJson, type ToolCaller } from './invoke';

/**
 * Projects as MCP resources (docs/mcp.md "Resources"): `taskspace://projects/{projectId}` reads a
 * project as markdown — its name as a heading, its tasks as a nested checklist in document order.
 * Both the list and the read go through the REST API as the caller, so a project the caller
 * cannot see is neither listed nor readable.
 */

/** The URI template of a project resource (RFC 6570). */
export const PROJECT_URI_TEMPLATE = 'taskspace://projects/{projectId}';

/** Most tasks a project resource shows; a longer project ends with a line saying so. */
export const RESOURCE_MAX_TASKS = 2000;

const PROJECT_URI = /^taskspace:\/\/projects\/([^/?#]+)$/;

interface ProjectItem {
  id: string;
  name: string;
  completed: boolean;
}

interface TaskItem {
  id: string;
  text: string;
  completed: boolean;
  parentId?: string;
}

/** The caller's projects (most recently viewed first, up to 100) as resources. */
export async function listProjectResources(app: FastifyInstance, caller: ToolCaller) {
  const page = await getJson<{ items: ProjectItem[] }>(app, '/api/v1/me/projects?limit=100', caller);
  return (page?.items ?? []).map((project) => ({
    uri: `taskspace://projects/${project.id}`,
    name: project.name,
    title: project.name,
    description: `The Taskspace project "${project.name}" as a markdown checklist${project.completed ? ' (completed)' : ''}`,
    mimeType: 'text/markdown',
  }));
}

/**
 * A project resource's markdown, or undefined when the URI is not a project's or the caller
 * cannot read it.
 */
export async function readProjectResource(app: FastifyInstance, uri: string, caller: ToolCaller): Promise<string | undefined> {
  const id = PROJECT_URI.exec(uri)?.[1];
  if (!id) return undefined;
  const projectId = encodeURIComponent(decodeURIComponent(id));
  const project = await getJson<{ item: ProjectItem }>(app, `/api/v1/projects/${projectId}`, caller);
  if (!project) return undefined;
  const tasks: TaskItem[] = [];
  let after: string | undefined;
  while (tasks.length < RESOURCE_MAX_TASKS) {
    const query = `limit=500${after ? `&after=${after}` : ''}`;
    const page = await getJson<{ items: TaskItem[] }>(app, `/api/v1/projects/${projectId}/tasks?${query}`, caller);
    const items = page?.items ?? [];
    tasks.push(...items);
    if (items.length < 500) break;
    after = items[items.length - 1]!.id;
  }
  const depth = new Map<string, number>();
  const lines = [`# ${project.item.name}${project.item.completed ? ' (completed)' : ''}`, ''];
  for (const task of tasks.slice(0, RESOURCE_MAX_TASKS)) {
    const level = task.parentId !== undefined ? (depth.get(task.parentId) ?? -1) + 1 : 0;
    depth.set(task.id, level);
    lines.push(`${'  '.repeat(level)}- [${task.completed ? 'x' : ' '}] ${task.text.replace(/\n/g, ' ')}`);
  }
  if (tasks.length >= RESOURCE_MAX_TASKS)
    lines.push('', `(only the first ${RESOURCE_MAX_TASKS} tasks are shown; list_project_tasks pages through all)`);
  return lines.join('\n') + '\n';
}
