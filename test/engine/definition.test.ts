import { AUTOMATION_SCHEMA, Templates, validateDefinition } from '../../engine/src';

const t = new Templates();
const check = (d: unknown) => validateDefinition(d, (s) => t.check(s));

const valid = {
  name: 'Triage',
  trigger: { type: 'task.added', scope: { projectId: 'p1' } },
  actions: [
    {
      type: 'http.request',
      id: 'fetch',
      method: 'POST',
      url: 'https://example.com/x',
      body: { type: 'json', value: { text: '{{ trigger.nodeText }}' } },
    },
    {
      type: 'branch',
      conditions: { anyOf: [{ allOf: [{ left: '{{ steps.fetch.status }}', operator: 'equals', right: 200 }] }] },
      then: [{ type: 'task.complete', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.nodeId }}' }],
      else: [{ type: 'approval', message: 'ok?', then: [{ type: 'delay', minutes: 5 }] }],
    },
  ],
};

describe('automation definition', () => {
  test('the published schema is a draft-07 JSON schema with every action kind', () => {
    expect(AUTOMATION_SCHEMA.$schema).toContain('draft-07');
    expect(JSON.stringify(AUTOMATION_SCHEMA)).toContain('agent.command');
  });

  test('a valid definition gets missing step ids in document order, skipping used ones', () => {
    const result = check(valid);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const branch = result.definition.actions[1] as any;
    expect(result.definition.actions[0]!.id).toBe('fetch');
    expect(branch.id).toBe('step1');
    expect(branch.then[0].id).toBe('step2');
    expect(branch.else[0].id).toBe('step3');
    expect(branch.else[0].then[0].id).toBe('step4');
  });

  test.each([
    [{ ...valid, name: undefined }, 'name', 'required'],
    [{ ...valid, trigger: { type: 'nope' } }, 'trigger.type', 'invalid_value'],
    [{ ...valid, actions: [{ type: 'http.request', method: 'TRACE', url: 'https://x' }] }, 'actions[0].method', 'invalid_value'],
    [{ ...valid, actions: [{ type: 'task.create', projectId: 'p' }] }, 'actions[0].text', 'required'],
    [{ ...valid, actions: [{ type: 'task.create', projectId: 'p', text: 'x', extra: 1 }] }, 'actions[0].extra', 'unknown_field'],
    [{ ...valid, actions: [{ type: 'delay' }] }, 'actions[0]', 'required'],
    [{ ...valid, trigger: { type: 'schedule' } }, 'trigger', 'required'],
    [{ ...valid, trigger: { type: 'webhook', scope: {} } }, 'trigger.scope', 'unknown_field'],
    [{ ...valid, actions: [{ type: 'task.complete', id: '9bad', projectId: 'p', taskId: 't' }] }, 'actions[0].id', 'invalid_format'],
  ])('schema problem %#: %s %s', (definition, path, reason) => {
    const result = check(definition);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ path, reason });
  });

  test('semantic checks: duplicate ids, template syntax, cron, static regex, delay modes', () => {
    const dup = check({
      ...valid,
      actions: [
        { type: 'delay', id: 'a', minutes: 1 },
        { type: 'delay', id: 'a', minutes: 1 },
      ],
    });
    expect(!dup.ok && dup.problems[0]).toMatchObject({ path: 'actions[1].id', reason: 'duplicate' });
    const tpl = check({ ...valid, actions: [{ type: 'task.create', projectId: 'p', text: '{{ trigger.x | nofilter }}' }] });
    expect(!tpl.ok && tpl.problems[0]).toMatchObject({ path: 'actions[0].text', reason: 'invalid_template' });
    const cron = check({ ...valid, trigger: { type: 'schedule', cron: 'every day please' } });
    expect(!cron.ok && cron.problems[0]).toMatchObject({ path: 'trigger.cron', reason: 'invalid_format' });
    const both = check({ ...valid, trigger: { type: 'schedule', cron: '* * * * *', everyMinutes: 5 } });
    expect(both.ok).toBe(false);
    const regex = check({
      ...valid,
      actions: [{ type: 'branch', conditions: { anyOf: [{ allOf: [{ left: 'x', operator: 'matches', right: '(' }] }] } }],
    });
    expect(!regex.ok && regex.problems[0]).toMatchObject({ reason: 'invalid_format' });
    const delay = check({ ...valid, actions: [{ type: 'delay', minutes: 1, until: '2030-01-01T00:00:00Z' }] });
    expect(!delay.ok && delay.problems[0]).toMatchObject({ path: 'actions[0].until', reason: 'invalid_value' });
  });

  test('garbage input never throws', () => {
    for (const input of [null, 42, 'x', [], { actions: 'no' }]) expect(check(input).ok).toBe(false);
  });
});
