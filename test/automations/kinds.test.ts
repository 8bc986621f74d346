import fs from 'node:fs';
import path from 'node:path';
import { EDITORS, FINAL_RUN_STATUSES, PICKERS, RUN_STATUSES } from '../../engine/src';
import { call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runsOf, settledRuns } from './helpers';

/** The icon names the builder draws (`web/src/automations/builder/icons.tsx`, the keys of its `ICONS` table). */
function builderIcons(): Set<string> {
  const source = fs.readFileSync(path.resolve(__dirname, '../../web/src/automations/builder/icons.tsx'), 'utf8');
  const table = source.slice(source.indexOf('const ICONS'), source.indexOf('};', source.indexOf('const ICONS')));
  return new Set([...table.matchAll(/^\s+'?([a-z0-9-]+)'?: [A-Z]\w*,$/gm)].map((m) => m[1]!));
}

/** Every property schema of an object schema, with its path, descending into nested objects and `oneOf` alternatives. */
function properties(schema: any, path = ''): [string, any][] {
  const out: [string, any][] = [];
  for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
    out.push([`${path}${name}`, prop]);
    if (prop.type === 'object' && prop.properties) out.push(...properties(prop, `${path}${name}.`));
    for (const alt of prop.oneOf ?? []) if (alt.properties) out.push(...properties(alt, `${path}${name}.`));
  }
  return out;
}

/** The kinds catalogue (issue 23, for the builder) and trigger filters on inbound calls, over HTTP. */
describe('automation kinds', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  test('GET /automations/kinds lists every kind of the published schema, each labelled, with annotated parameters', async () => {
    const res = await api.get('/api/v1/automations/kinds');
    expect(res.status).toBe(200);
    const { triggers, actions, commonActionParameters, lists } = res.body;
    const editors = new Set(lists.editors);
    const pickers = new Set(lists.pickers);
    const schema = (await api.get('/api/v1/automations/schema')).body;
    expect(triggers.map((k: any) => k.type)).toEqual(schema.definitions.trigger.properties.type.enum);
    expect(actions.map((k: any) => k.type)).toEqual(schema.definitions.action.properties.type.enum);
    expect(triggers.map((k: any) => k.type)).toEqual(
      expect.arrayContaining(['task.updated', 'task.deleted', 'field.changed', 'schedule', 'webhook', 'form']),
    );
    for (const kind of [...triggers, ...actions]) {
      expect(kind).toEqual(
        expect.objectContaining({
          title: expect.any(String),
          summary: expect.any(String),
          category: expect.any(String),
          icon: expect.stringMatching(/^[a-z0-9-]+$/),
        }),
      );
      expect(typeof kind.sideEffects).toBe('boolean');
      expect(kind.parameters.type).toBe('object');
      for (const [path, prop] of properties(kind.parameters)) {
        expect([kind.type, path, typeof prop.title]).toEqual([kind.type, path, 'string']);
        if (prop['x-editor'] !== undefined) expect([kind.type, path, editors.has(prop['x-editor'])]).toEqual([kind.type, path, true]);
        if (prop['x-picker'] !== undefined) expect([kind.type, path, pickers.has(prop['x-picker'])]).toEqual([kind.type, path, true]);
        for (const alt of prop.oneOf ?? []) expect(typeof alt.title).toBe('string');
      }
      // The fields every action has are described once, not per kind (`project.create`'s `name` is the project's).
      for (const common of ['id', 'retry', 'disabled', 'onError']) expect(kind.parameters.properties[common]).toBeUndefined();
    }
    const http = actions.find((k: any) => k.type === 'http.request');
    expect(http).toMatchObject({ category: 'HTTP', icon: 'globe', sideEffects: true, parameters: { required: ['method', 'url'] } });
    expect(http.parameters.properties.url['x-editor']).toBe('template');
    expect(http.output.properties.status).toBeDefined();
    expect(actions.find((k: any) => k.type === 'branch')).toMatchObject({ nested: ['then', 'else'], sideEffects: false });
    expect(actions.find((k: any) => k.type === 'task.create').parameters.properties.projectId['x-picker']).toBe('project');
    expect(actions.find((k: any) => k.type === 'task.get').sideEffects).toBe(false);
    const fieldChanged = triggers.find((k: any) => k.type === 'field.changed');
    expect(fieldChanged.variables).toEqual(expect.arrayContaining(['fieldId', 'fieldName', 'from', 'to', 'changedBy']));
    expect(Object.keys(fieldChanged.parameters.properties)).toEqual(['scope', 'field', 'includeOwnChanges', 'filter']);
    expect(triggers.find((k: any) => k.type === 'schedule').parameters.properties.filter['x-editor']).toBe('conditions');
    expect(triggers.find((k: any) => k.type === 'schedule').parameters.properties.includeOwnChanges).toBeUndefined();
    expect(Object.keys(commonActionParameters.properties)).toEqual(['id', 'name', 'retry', 'disabled', 'onError', 'timeoutMs']);
  });

  test("the catalogue publishes the engine's lists: editors, pickers, the icons its kinds name, run statuses", async () => {
    const { triggers, actions, lists } = (await api.get('/api/v1/automations/kinds')).body;
    expect(lists).toEqual({
      editors: [...EDITORS],
      pickers: [...PICKERS],
      icons: [...new Set([...triggers, ...actions].map((k: { icon: string }) => k.icon))].sort(),
      runStatuses: [...RUN_STATUSES],
      finalRunStatuses: [...FINAL_RUN_STATUSES],
    });
    expect(lists.icons).toEqual(expect.arrayContaining(['globe', 'git-branch', 'webhook']));
  });

  test('every icon a kind names is one the builder draws (web/src/automations/builder/icons.tsx)', async () => {
    const drawn = builderIcons();
    expect(drawn.size).toBeGreaterThan(50);
    expect(drawn.has('alarm-clock') && drawn.has('globe')).toBe(true);
    const { triggers, actions, lists } = (await api.get('/api/v1/automations/kinds')).body;
    for (const kind of [...triggers, ...actions])
      expect([kind.type, kind.icon, drawn.has(kind.icon)]).toEqual([kind.type, kind.icon, true]);
    expect(lists.icons.filter((icon: string) => !drawn.has(icon))).toEqual([]);
  });

  test('the catalogue needs a signed-in member', async () => {
    expect((await call(server.url, 'GET', '/api/v1/automations/kinds')).status).toBe(401);
  });

  test('a webhook whose filter refuses the call answers 200 {filtered: true} and records no run; a passing call starts one', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Only paid orders',
      trigger: { type: 'webhook', filter: { anyOf: [{ allOf: [{ left: '{{ trigger.status }}', operator: 'equals', right: 'paid' }] }] } },
      actions: [{ id: 'out', type: 'set', values: { status: '{{ trigger.status }}' } }],
    });
    const path = new URL(a.webhook.url).pathname;
    const refused = await call(server.url, 'POST', path, { body: { status: 'open' } });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ ok: true, requestId: expect.any(String), filtered: true });
    const accepted = await call(server.url, 'POST', path, { body: { status: 'paid' } });
    expect(accepted.body).toEqual({ ok: true, requestId: expect.any(String) });
    const [run] = await settledRuns(api, a.id, 1);
    expect(run.steps[0].output).toEqual({ status: 'paid' });
    expect(await runsOf(api, a.id)).toHaveLength(1);
  });

  test('trigger options of other kinds (`field`, `includeOwnChanges`) are refused at save with their path', async () => {
    const res = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'task.added', field: 'Status' },
      actions: [],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({ field: 'trigger.field', reason: 'unknown_field' });
    const own = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'schedule', everyMinutes: 5, includeOwnChanges: true },
      actions: [],
    });
    expect(own.status).toBe(400);
    expect(own.body.error.details).toMatchObject({ field: 'trigger.includeOwnChanges', reason: 'unknown_field' });
  });
});
