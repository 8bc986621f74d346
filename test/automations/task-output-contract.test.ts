import { DEFAULT_REGISTRY } from '../../engine/src';
import { TaskSchema } from '../../server/src/modules/tasks/item';
import { ProjectSchema } from '../../server/src/modules/projects/item';
import { MemberSchema } from '../../server/src/modules/tasks/schemas';
import { addUser, client, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation } from './helpers';

/**
 * The engine's task and project outputs against the REST items (issue 36, "each shape once").
 * The engine cannot import the server, so it declares what its `task.*` and `project.create`
 * steps return on its own (`engine/src/kinds/outputs.ts`). These checks hold the two equal:
 * - structurally: each kind's declared output against the server's `TaskSchema` /
 *   `ProjectSchema` (as imported, and as the running server publishes them: the kinds
 *   catalogue against `/openapi.json`);
 * - at run time: every task step's real output equals `GET` of the same task over HTTP, and
 *   fits the output its kind declares, closed (a property the kind does not declare fails).
 * A field added to `TaskSchema` and its SQL column but not to the engine fails both.
 */

/** A JSON Schema as far as these checks read it. */
interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}

/**
 * The structure of a schema, without its annotations (titles, descriptions, editor hints,
 * `additionalProperties`): types, formats, enums, properties and which are required, items. An
 * OpenAPI `nullable` and a JSON Schema `anyOf [..., {type: 'null'}]` come out the same.
 */
function structure(schema: Schema): unknown {
  if (schema.nullable) {
    const { nullable: _nullable, ...rest } = schema;
    return structure({ anyOf: [rest, { type: 'null' }] });
  }
  if (schema.anyOf) {
    return {
      anyOf: schema.anyOf
        .map(structure)
        .map((s) => JSON.stringify(s))
        .sort(),
    };
  }
  const out: Record<string, unknown> = { type: schema.type ?? 'any' };
  if (schema.format !== undefined) out.format = schema.format;
  if (schema.enum !== undefined) out.enum = [...schema.enum].sort();
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, p]) => [name, structure(p)]),
    );
    out.required = [...(schema.required ?? [])].sort();
  }
  if (schema.items) out.items = structure(schema.items);
  return out;
}

/** `schema` without the properties `names` (for an output that adds to an item). */
function without(schema: Schema, ...names: string[]): Schema {
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !names.includes(name)));
  return { ...schema, properties, required: (schema.required ?? []).filter((name) => !names.includes(name)) };
}

/**
 * What in `value` does not fit `schema` read as closed (every object exactly its declared
 * properties, every required one present): a list of `path: problem`, empty when it fits.
 */
function misfits(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema.anyOf) {
    return schema.anyOf.some((s) => misfits(s, value, path).length === 0) ? [] : [`${path}: fits none of anyOf`];
  }
  if (value === null) return schema.nullable || schema.type === 'null' ? [] : [`${path}: null`];
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const actual = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    return [`${path}: ${actual}, declared ${types.join('|')}`];
  }
  if (actual === 'array' && schema.items) return (value as unknown[]).flatMap((item, i) => misfits(schema.items!, item, `${path}[${i}]`));
  if (actual !== 'object' || !schema.properties) return [];
  const record = value as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((name) => !(name in schema.properties!))
    .map((name) => `${path}.${name}: not declared`);
  for (const name of schema.required ?? []) if (!(name in record)) problems.push(`${path}.${name}: missing`);
  for (const [name, property] of Object.entries(schema.properties)) {
    if (name in record) problems.push(...misfits(property, record[name], `${path}.${name}`));
  }
  return problems;
}

/** The action kinds whose step returns the task as `GET .../tasks/{taskId}` does. */
const TASK_RETURNING = ['task.create', 'task.update', 'task.complete', 'task.uncomplete', 'task.assign', 'task.setDate', 'task.move'];

/** The declared output of an action kind of the engine's default list. */
function engineOutput(type: string): Schema {
  const output = DEFAULT_REGISTRY.action(type)?.output;
  if (!output) throw new Error(`${type} declares no output`);
  return output as Schema;
}

describe('the engine declares the REST items as its steps output (as imported)', () => {
  test.each(TASK_RETURNING)('%s outputs TaskSchema', (type) => {
    expect(structure(engineOutput(type))).toEqual(structure(TaskSchema as Schema));
  });

  test('task.get outputs TaskSchema plus the assignees (MemberSchema) and the field values', () => {
    const output = engineOutput('task.get');
    expect(structure(without(output, 'assignees', 'fields'))).toEqual(structure(TaskSchema as Schema));
    expect(structure(output.properties!.assignees!.items!)).toEqual(structure(MemberSchema as Schema));
  });

  test('task.find outputs pages of TaskSchema', () => {
    expect(structure(engineOutput('task.find').properties!.items!.items!)).toEqual(structure(TaskSchema as Schema));
  });

  test('project.create outputs ProjectSchema', () => {
    expect(structure(engineOutput('project.create'))).toEqual(structure(ProjectSchema as Schema));
  });

  test('the comparison sees a field the engine lacks, a changed type and a dropped requirement', () => {
    const task = TaskSchema as Schema;
    const wider = { ...task, properties: { ...task.properties, dueAt: { type: 'string' } }, required: [...task.required!, 'dueAt'] };
    expect(structure(engineOutput('task.create'))).not.toEqual(structure(wider));
    const retyped = { ...task, properties: { ...task.properties, completed: { type: 'integer' } } };
    expect(structure(engineOutput('task.create'))).not.toEqual(structure(retyped));
    expect(structure(engineOutput('task.create'))).not.toEqual(structure(without(task, 'completed')));
    expect(misfits(engineOutput('task.create'), { id: 'a', text: 'b', completed: false, dueAt: 'c' })).toEqual(['$.dueAt: not declared']);
  });
});

describe('the engine declares the REST items as its steps output (over HTTP, on this store)', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  /** The running server's declared outputs by kind (`GET /api/v1/automations/kinds`). */
  let outputs: Map<string, Schema>;
  /** The response item schemas `/openapi.json` declares for a task and a project. */
  let restTask: Schema;
  let restProject: Schema;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' });
    const catalogue = (await api.get('/api/v1/automations/kinds')).body;
    outputs = new Map(catalogue.actions.filter((k: any) => k.output).map((k: any) => [k.type, k.output]));
    const document = (await api.get('/openapi.json')).body;
    const item = (route: string) => document.paths[route].get.responses['200'].content['application/json'].schema.properties.item;
    restTask = item('/api/v1/projects/{projectId}/tasks/{taskId}');
    restProject = item('/api/v1/projects/{projectId}');
  });
  afterAll(() => server.close());

  test('the catalogue publishes each task and project output as /openapi.json publishes the item', () => {
    for (const type of TASK_RETURNING) expect([type, structure(outputs.get(type)!)]).toEqual([type, structure(restTask)]);
    expect(structure(without(outputs.get('task.get')!, 'assignees', 'fields'))).toEqual(structure(restTask));
    expect(structure(outputs.get('task.find')!.properties!.items!.items!)).toEqual(structure(restTask));
    expect(structure(outputs.get('project.create')!)).toEqual(structure(restProject));
  });

  test("each task step's output is GET of the same task, and fits the output its kind declares", async () => {
    const projectId = await newProject(server, 'Contract');
    const [a, b, c, d, e, f, g] = await addTasks(server, projectId, ['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${d!.id}/complete`)).status).toBe(200);
    const on = (taskId: string) => ({ projectId: '{{ trigger.projectId }}', taskId });
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Contract',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'create',
          type: 'task.create',
          projectId: '{{ trigger.projectId }}',
          text: 'Made',
          referenceTaskId: a!.id,
          placement: 'beforeend',
        },
        { id: 'update', type: 'task.update', ...on(b!.id), text: 'B again' },
        { id: 'complete', type: 'task.complete', ...on(c!.id) },
        { id: 'reopen', type: 'task.uncomplete', ...on(d!.id) },
        { id: 'assign', type: 'task.assign', ...on(e!.id), handles: ['ann'] },
        { id: 'date', type: 'task.setDate', ...on(f!.id), start: { date: '2031-02-03' } },
        { id: 'move', type: 'task.move', ...on(g!.id), targetTaskId: a!.id, position: 'afterbegin' },
        { id: 'get', type: 'task.get', ...on('{{ steps.create.id }}') },
        { id: 'find', type: 'task.find', projectId: '{{ trigger.projectId }}', filter: { text: 'Made' } },
        { id: 'project', type: 'project.create', name: 'Made by {{ automation.name }}', content: '- one' },
      ],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { projectId } });
    expect(res.status).toBe(200);
    expect(res.body.item.status).toBe('completed');
    const steps = new Map<string, { type: string; output: any }>(res.body.item.steps.map((s: any) => [s.id, s]));
    const read = async (path: string) => {
      const answer = await api.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      return answer.body;
    };
    const task = async (id: string) => (await read(`/api/v1/projects/${projectId}/tasks/${id}`)).item;

    for (const [id, step] of steps) {
      expect([id, misfits(outputs.get(step.type)!, step.output)]).toEqual([id, []]);
      if (TASK_RETURNING.includes(step.type)) expect([id, step.output]).toEqual([id, await task(step.output.id)]);
    }
    // Each step acted on its own task, so its output is that task as it is now; the subtasks show parentId.
    expect(steps.get('create')!.output.parentId).toBe(a!.id);
    expect(steps.get('move')!.output.parentId).toBe(a!.id);
    expect(steps.get('reopen')!.output.completed).toBe(false);

    const got = steps.get('get')!.output;
    const { assignees, fields, ...gotTask } = got;
    expect(gotTask).toEqual(await task(steps.get('create')!.output.id));
    expect(assignees).toEqual((await read(`/api/v1/projects/${projectId}/tasks/${gotTask.id}/assignees`)).items);
    expect(fields).toEqual([]);
    expect(steps.get('find')!.output.items).toEqual([await task(steps.get('create')!.output.id)]);
    const project = steps.get('project')!.output;
    expect(project).toEqual((await read(`/api/v1/projects/${project.id}`)).item);
  });
});
