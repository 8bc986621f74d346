import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type BuiltApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { buildTools } from '../../server/src/modules/mcp/tools';
import { reasonWithoutTool, ROUTES_WITHOUT_TOOLS } from '../../server/src/modules/mcp/exclusions';
import { storeEnv } from '../helpers/test-store';

/**
 * The REST-to-tools mapping (docs/mcp.md "Tools"): every route under /api has an MCP tool or a
 * documented reason for having none, tool names are unique (buildTools throws otherwise), every
 * tool's route declares a JSON answer and takes no file, and no reason names a route that does not
 * exist. A new route that cannot be a tool (a stream, bytes, an upload) and has no reason fails here.
 */
describe('MCP tools cover the REST routes', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-test-'));
    built = await buildApp({ config: loadConfig({ TASKSPACE_DATA_DIR: dataDir, ...storeEnv(dataDir), TASKSPACE_LOG_LEVEL: 'silent' }) });
    await built.app.ready();
  });
  afterAll(() => built.app.close());

  it('gives every /api route a tool or a reason', () => {
    const tools = buildTools(built.app.routeCatalog);
    const byRoute = new Map([...tools.values()].map((tool) => [`${tool.route.method} ${tool.route.url}`, tool.name]));
    const uncovered = built.app.routeCatalog
      .all()
      .filter((route) => route.url.startsWith('/api'))
      .filter((route) => !byRoute.has(`${route.method} ${route.url}`) && !reasonWithoutTool(route))
      .map((route) => `${route.method} ${route.url}`);
    expect(uncovered).toEqual([]);
    const declared = new Set(built.app.routeCatalog.all().map((route) => `${route.method} ${route.url}`));
    expect(Object.keys(ROUTES_WITHOUT_TOOLS).filter((key) => !declared.has(key))).toEqual([]);
    expect(tools.size).toBeGreaterThan(90);
    // A tool answers JSON and takes JSON: a route that streams, answers bytes or takes a file needs a reason instead.
    const notJson = [...tools.values()]
      .filter((tool) => !tool.outputSchema || (tool.route.schema.consumes ?? []).some((type) => type !== 'application/json'))
      .map((tool) => `${tool.route.method} ${tool.route.url}`);
    expect(notJson).toEqual([]);
  });

  it('exposes the resources the issue names, with descriptions, schemas and annotations', () => {
    const tools = buildTools(built.app.routeCatalog);
    for (const name of [
      'list_workspaces',
      'list_workspace_folders',
      'get_project',
      'list_folder_projects',
      'create_project',
      'copy_project',
      'complete_project',
      'create_projects_from_template',
      'list_project_tasks',
      'get_project_task',
      'create_project_task',
      'update_project_task',
      'complete_project_task',
      'move_project_task',
      'set_project_task_assignees',
      'set_project_task_date',
      'set_project_task_note',
      'update_project_task_field',
      'create_project_task_comment',
      'list_folder_agents',
      'get_agent',
      'create_agent_convo',
      'list_folder_medias',
      'get_media',
      'list_automations',
      'get_automation',
      'list_automation_runs',
      'approve_automation_run',
      'reject_automation_run',
    ]) {
      const tool = tools.get(name);
      expect({ name, found: tool !== undefined }).toEqual({ name, found: true });
      expect(tool!.description.length).toBeGreaterThan(20);
      expect(tool!.inputSchema.type).toBe('object');
    }
    expect(tools.get('delete_project')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(tools.get('list_project_tasks')!.description).toContain('`after`');
    expect(tools.get('list_project_tasks')!.outputSchema?.type).toBe('object');
  });
});
