import { Type } from '@sinclair/typebox';
import {
  AUTOMATION_SCHEMA,
  createEngine,
  DEFAULT_KINDS,
  defineAction,
  defineTrigger,
  fetchHttp,
  KindRegistry,
  MemoryStore,
  Steps,
  Template,
  TRIGGER_VARIABLES,
  validateDefinition,
  variableProblems,
  walkActions,
  type Action,
  type Engine,
  type KindDeclaration,
  type RunRecord,
  type TriggerEvent,
} from '../../engine/src';
import { MemService, TestClock } from './helpers';

const WS = 'ws1';
const OWNER = 'u1';

/** A throw-away action kind, declared here and nowhere else: renders `message`, answers `{echo}`. */
const ECHO = defineAction({
  type: 'test.echo',
  title: 'Echo',
  summary: 'Answers its message in capitals.',
  category: 'Data',
  icon: 'megaphone',
  sideEffects: false,
  timeout: true,
  parameters: Type.Object({ message: Template({ title: 'Message' }), loud: Type.Optional(Type.Boolean({ title: 'Loud' })) }),
  output: Type.Object({ echo: Type.String() }),
  executor: {
    prepare: (a, scope, templates) => ({ message: templates.render(a.message, scope, 'message'), loud: a.loud === true }),
    execute: async (_ctx, p) => ({ echo: p.loud ? p.message.toUpperCase() : p.message }),
  },
});
/** A throw-away event trigger kind: `test.ping` events, limited to one sender by `from`. */
const PING = defineTrigger({
  type: 'test.ping',
  title: 'Ping',
  summary: 'When something pings.',
  category: 'Data',
  icon: 'radio',
  source: 'event',
  parameters: Type.Object({ from: Type.Optional(Type.String({ minLength: 1, title: 'From' })) }),
  variables: { names: ['who'], open: false },
  match: (event, trigger) => (trigger.from === undefined || trigger.from === event.payload.who ? { who: event.payload.who } : undefined),
});

function setup(kinds?: readonly KindDeclaration[], clock = new TestClock()) {
  const store = new MemoryStore();
  const engine = createEngine({ store, service: new MemService(), http: fetchHttp(), clock, autoTick: false, ...(kinds ? { kinds } : {}) });
  return { store, engine, clock };
}

const create = (engine: Engine, definition: unknown) => engine.createAutomation({ workspaceId: WS, ownerId: OWNER, definition });

async function refusal(engine: Engine, definition: unknown): Promise<unknown> {
  try {
    engine.validate(definition);
  } catch (error) {
    return (error as { details?: unknown }).details;
  }
  throw new Error('the definition was accepted');
}

function taskEvent(id: string, type: string, payload: Record<string, unknown> = {}, causedBy?: TriggerEvent['causedBy']): TriggerEvent {
  const event: TriggerEvent = {
    id,
    type,
    workspaceId: WS,
    payload: { projectId: 'p1', projectTitle: 'Inbox', projectLink: 'http://x/p1', nodeId: 'n1', nodeText: 'Call Bob', ...payload },
  };
  if (causedBy) event.causedBy = causedBy;
  return event;
}

async function settled(engine: Engine, runs: RunRecord[]): Promise<RunRecord[]> {
  await engine.idle();
  return Promise.all(runs.map(async (r) => (await engine.getRun(r.id))!.run));
}

describe('engine: kinds as data', () => {
  test('a kind added in the engine options is validated, published, catalogued and executed; the default engine does not know it', async () => {
    const { engine } = setup([...DEFAULT_KINDS, ECHO, PING]);
    // Published schema and catalogue.
    const schema = engine.kinds.schema as any;
    expect(schema.definitions.action.properties.type.enum).toContain('test.echo');
    expect(schema.definitions.trigger.properties.type.enum).toContain('test.ping');
    const catalogue = engine.kinds.catalogue();
    expect(catalogue.actions.find((k) => k.type === 'test.echo')).toMatchObject({
      title: 'Echo',
      category: 'Data',
      sideEffects: false,
      parameters: { required: ['message'], properties: { message: { title: 'Message', 'x-editor': 'template' } } },
      output: { properties: { echo: { type: 'string' } } },
    });
    expect(catalogue.triggers.find((k) => k.type === 'test.ping')).toMatchObject({
      variables: ['who'],
      parameters: { properties: { from: { title: 'From' }, filter: { 'x-editor': 'conditions' } } },
    });
    // Validation, with field paths.
    expect(await refusal(engine, { name: 'E', trigger: { type: 'webhook' }, actions: [{ type: 'test.echo' }] })).toEqual({
      field: 'actions[0].message',
      reason: 'required',
    });
    expect(
      await refusal(engine, { name: 'E', trigger: { type: 'webhook' }, actions: [{ type: 'test.echo', message: 'x', volume: 3 }] }),
    ).toEqual({ field: 'actions[0].volume', reason: 'unknown_field' });
    expect(
      await refusal(engine, { name: 'E', trigger: { type: 'webhook' }, actions: [{ type: 'test.echo', message: '{{ oops' }] }),
    ).toMatchObject({ field: 'actions[0].message', reason: 'invalid_template' });
    expect(await refusal(engine, { name: 'E', trigger: { type: 'test.ping', from: '' }, actions: [] })).toEqual({
      field: 'trigger.from',
      reason: 'too_short',
    });
    // The default kinds know nothing of it.
    expect(validateDefinition({ name: 'E', trigger: { type: 'webhook' }, actions: [{ type: 'test.echo', message: 'x' }] })).toMatchObject({
      ok: false,
      problems: [{ path: 'actions[0].type', reason: 'invalid_value' }],
    });
    expect(JSON.stringify(AUTOMATION_SCHEMA)).not.toContain('test.echo');

    // Execution: the trigger matches through its kind, the action runs through its executor.
    const a = await create(engine, {
      name: 'E',
      trigger: { type: 'test.ping', from: 'ann' },
      actions: [{ id: 'say', type: 'test.echo', message: 'hi {{ trigger.who }}', loud: true, timeoutMs: 1000 }],
    });
    expect(await engine.submit({ id: 'e1', type: 'test.ping', workspaceId: WS, payload: { who: 'bob' } })).toEqual([]);
    const [run] = await settled(engine, await engine.submit({ id: 'e2', type: 'test.ping', workspaceId: WS, payload: { who: 'ann' } }));
    expect(run).toMatchObject({ automationId: a.id, status: 'completed', trigger: { type: 'test.ping', variables: { who: 'ann' } } });
    const steps = (await engine.getRun(run!.id))!.steps;
    expect(steps.map((s) => [s.stepId, s.status, s.output])).toEqual([['say', 'succeeded', { echo: 'HI ANN' }]]);
  });

  test('a custom kind holding steps (`nested`) is walked: its steps are validated, visited and found by their paths', async () => {
    /** A throw-away control kind holding a step list under `steps` (never run here: validation and walking only). */
    const GROUP = defineAction({
      type: 'test.group',
      title: 'Group',
      summary: 'Holds steps.',
      category: 'Flow',
      icon: 'group',
      sideEffects: false,
      nested: ['steps'],
      parameters: Type.Object({ label: Type.Optional(Template({ title: 'Label' })), steps: Steps({ title: 'Steps' }) }),
    });
    const kinds = new KindRegistry([...DEFAULT_KINDS, GROUP]);
    const { engine } = setup([...DEFAULT_KINDS, GROUP]);
    const definition = {
      name: 'G',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'group',
          type: 'test.group',
          label: 'outer',
          steps: [
            { id: 'inner', type: 'set', values: { a: '1' } },
            {
              id: 'deeper',
              type: 'branch',
              conditions: { anyOf: [{ allOf: [{ left: '1', operator: 'equals', right: '1' }] }] },
              then: [{ id: 'leaf', type: 'set', values: { b: '2' } }],
            },
          ],
        },
        {
          id: 'after',
          type: 'set',
          values: { c: '{{ steps.inner.a }}' },
          onError: { then: [{ id: 'fallback', type: 'set', values: { d: '4' } }] },
        },
      ],
    };
    const visits = (kindsArg?: KindRegistry) => {
      const seen: string[] = [];
      walkActions(definition.actions as unknown as Action[], (a, path) => seen.push(`${a.id}@${path.join('.')}`), undefined, kindsArg);
      return seen;
    };
    const expected = [
      'group@actions.0',
      'inner@actions.0.steps.0',
      'deeper@actions.0.steps.1',
      'leaf@actions.0.steps.1.then.0',
      'after@actions.1',
      'fallback@actions.1.onError.then.0',
    ];
    expect(visits(kinds)).toEqual(expected);
    // Without a registry, step lists are recognised by their shape.
    expect(visits()).toEqual(expected);
    // With the registry, a known kind's data that looks like steps is not walked (`set` declares no nested lists).
    const data = [{ id: 'vals', type: 'set', values: { list: [{ id: 'x', type: 'task.create' }] } }] as unknown as Action[];
    const inData: string[] = [];
    walkActions(data, (a) => inData.push(a.id), undefined, kinds);
    expect(inData).toEqual(['vals']);

    // The engine's validation walks the custom kind's steps: duplicate ids and bad templates inside are found with their paths.
    expect(engine.validate(definition).actions[0]).toMatchObject({ type: 'test.group' });
    const duplicate = {
      ...definition,
      actions: [{ ...definition.actions[0], steps: [{ id: 'after', type: 'set', values: { a: '1' } }] }, definition.actions[1]],
    };
    expect(await refusal(engine, duplicate)).toMatchObject({ field: 'actions[1].id', reason: 'duplicate' });
    const badTemplate = {
      ...definition,
      actions: [{ id: 'group', type: 'test.group', steps: [{ id: 'inner', type: 'set', values: { a: '{{ oops' } }] }],
    };
    expect(await refusal(engine, badTemplate)).toMatchObject({ field: 'actions[0].steps[0].values.a', reason: 'invalid_template' });
  });

  test('two kinds of one type are refused', () => {
    expect(() => new KindRegistry([...DEFAULT_KINDS, { ...ECHO, type: 'http.request' }])).toThrow(
      "two action kinds are named 'http.request'",
    );
  });
});

describe('engine: task.updated, task.deleted and field.changed triggers', () => {
  test('each starts runs with its variables; field.changed with `field` matches that field by name (any case) or id only', async () => {
    const { engine } = setup();
    const updated = await create(engine, { name: 'U', trigger: { type: 'task.updated' }, actions: [] });
    const deleted = await create(engine, { name: 'D', trigger: { type: 'task.deleted', scope: { projectId: 'p1' } }, actions: [] });
    const anyField = await create(engine, { name: 'F', trigger: { type: 'field.changed' }, actions: [] });
    const status = await create(engine, { name: 'S', trigger: { type: 'field.changed', field: 'status' }, actions: [] });
    const byId = await create(engine, { name: 'I', trigger: { type: 'field.changed', field: 'f2' }, actions: [] });

    const change = { changed: ['text'], changes: { text: { from: 'Call Bob', to: 'Call Bob today' } }, updatedBy: 'ann', assignees: [] };
    const [u] = await engine.submit(taskEvent('e1', 'task.updated', change));
    expect(u).toMatchObject({ automationId: updated.id, trigger: { type: 'task.updated', variables: { nodeId: 'n1', ...change } } });
    const [d] = await engine.submit(
      taskEvent('e2', 'task.deleted', { deletedBy: null, deletedAt: '2026-01-01T00:00:00.000Z', parentId: 'n0' }),
    );
    expect(d).toMatchObject({ automationId: deleted.id, trigger: { variables: { deletedBy: null, parentId: 'n0' } } });
    expect(await engine.submit(taskEvent('e3', 'task.deleted', { projectId: 'p2' }))).toEqual([]);

    const statusChange = await engine.submit(
      taskEvent('e4', 'field.changed', { fieldId: 'f1', fieldName: 'Status', from: null, to: 'Done', changedBy: 'ann' }),
    );
    expect(statusChange.map((r) => r.automationId).sort()).toEqual([anyField.id, status.id].sort());
    expect(statusChange[0]!.trigger.variables).toMatchObject({ fieldName: 'Status', from: null, to: 'Done' });
    const other = await engine.submit(
      taskEvent('e5', 'field.changed', { fieldId: 'f2', fieldName: 'Priority', from: 1, to: 2, changedBy: null }),
    );
    expect(other.map((r) => r.automationId).sort()).toEqual([anyField.id, byId.id].sort());
    await engine.idle();
  });

  test("task triggers skip the automation's own changes unless includeOwnChanges; other automations' changes count", async () => {
    const { engine } = setup();
    const own = await create(engine, { name: 'Own', trigger: { type: 'task.added' }, actions: [] });
    const opted = await create(engine, { name: 'Opted', trigger: { type: 'task.added', includeOwnChanges: true }, actions: [] });
    const byOwn = await engine.submit(taskEvent('e1', 'task.added', {}, { automationId: own.id, runId: 'r1' }));
    expect(byOwn.map((r) => r.automationId)).toEqual([opted.id]);
    const byOpted = await engine.submit(taskEvent('e2', 'task.added', {}, { automationId: opted.id, runId: 'r2' }));
    expect(byOpted.map((r) => r.automationId).sort()).toEqual([own.id, opted.id].sort());
    const byApi = await engine.submit(taskEvent('e3', 'task.added'));
    expect(byApi).toHaveLength(2);
    await engine.idle();
  });

  test('save checks: options of other kinds are unknown fields; field names the field', async () => {
    const { engine } = setup();
    expect(await refusal(engine, { name: 'x', trigger: { type: 'task.added', field: 'Status' }, actions: [] })).toEqual({
      field: 'trigger.field',
      reason: 'unknown_field',
    });
    expect(await refusal(engine, { name: 'x', trigger: { type: 'project.created', includeOwnChanges: true }, actions: [] })).toEqual({
      field: 'trigger.includeOwnChanges',
      reason: 'unknown_field',
    });
    expect(await refusal(engine, { name: 'x', trigger: { type: 'field.changed', field: '' }, actions: [] })).toEqual({
      field: 'trigger.field',
      reason: 'too_short',
    });
    expect(await refusal(engine, { name: 'x', trigger: { type: 'task.updated', includeOwnChanges: 'yes' }, actions: [] })).toEqual({
      field: 'trigger.includeOwnChanges',
      reason: 'invalid_type',
    });
    // A misspelt variable of the new kinds is named by the save check of variables.
    const typo = engine.validate({
      name: 'x',
      trigger: { type: 'field.changed' },
      actions: [{ id: 's', type: 'set', values: { v: '{{ trigger.fieldNmae }}' } }],
    });
    expect(variableProblems(typo)).toEqual([
      expect.objectContaining({
        path: 'actions[0].values.v',
        reason: 'unknown_variable',
        message: expect.stringContaining('trigger.fieldName'),
      }),
    ]);
    expect(TRIGGER_VARIABLES['field.changed']!.names).toEqual(expect.arrayContaining(['fieldId', 'fieldName', 'from', 'to', 'changedBy']));
    expect(TRIGGER_VARIABLES['task.updated']!.names).toEqual(expect.arrayContaining(['changed', 'changes', 'updatedBy']));
    expect(TRIGGER_VARIABLES['task.deleted']!.names).toEqual(expect.arrayContaining(['deletedBy', 'deletedAt', 'parentId']));
  });
});

describe('engine: trigger filters on schedules and inbound calls', () => {
  const onlyAt = (minute: string) => ({
    anyOf: [{ allOf: [{ left: '{{ trigger.scheduledAt }}', operator: 'contains', right: `:${minute}:00` }] }],
  });

  test('a schedule slot the filter refuses counts as fired and starts no run', async () => {
    const clock = new TestClock(Date.UTC(2025, 0, 6, 9, 1, 0));
    const { engine, store } = setup(undefined, clock);
    const a = await create(engine, { name: 'S', trigger: { type: 'schedule', everyMinutes: 15, filter: onlyAt('30') }, actions: [] });
    const runs = async () => (await store.listRuns({ automationId: a.id, limit: 100 })).map((r) => r.trigger.variables.scheduledAt);
    clock.ms = Date.UTC(2025, 0, 6, 9, 15, 10);
    await engine.tick();
    expect(await runs()).toEqual([]);
    expect(await store.getScheduleSlot(a.id)).toBe(Date.UTC(2025, 0, 6, 9, 15, 0));
    clock.ms = Date.UTC(2025, 0, 6, 9, 30, 10);
    await engine.tick();
    expect(await runs()).toEqual(['2025-01-06T09:30:00.000Z']);
    await engine.idle();
  });

  test('an inbound call the filter refuses is reported filtered (no run prepared); a passing one gets its run', async () => {
    const { engine } = setup();
    const a = await create(engine, {
      name: 'W',
      trigger: {
        type: 'webhook',
        filter: { anyOf: [{ allOf: [{ left: '{{ trigger.headers["x-event"] }}', operator: 'equals', right: 'push' }] }] },
      },
      actions: [],
    });
    const request = (event: string) => ({ method: 'POST', headers: { 'x-event': event }, query: {} });
    expect(engine.prepareInboundRun(a, { ref: 'main' }, { requestId: 'q1', request: request('ping') })).toEqual({ filtered: true });
    const passed = engine.prepareInboundRun(a, { ref: 'main' }, { requestId: 'q2', request: request('push') });
    expect(passed).toMatchObject({
      filtered: false,
      run: { status: 'queued', trigger: { type: 'webhook', variables: { ref: 'main', method: 'POST' } } },
    });
    const form = await create(engine, {
      name: 'F',
      trigger: {
        type: 'form',
        title: 'T',
        fields: [{ name: 'age', label: 'Age', type: 'number' }],
        filter: { anyOf: [{ allOf: [{ left: '{{ trigger.age }}', operator: 'gte', right: 18 }] }] },
      },
      actions: [],
    });
    expect(engine.prepareInboundRun(form, { age: 12 }, { requestId: 'q3' })).toEqual({ filtered: true });
    expect(engine.prepareInboundRun(form, { age: 30 }, { requestId: 'q4' })).toMatchObject({ filtered: false });
  });
});
