import { Templates, type Scope } from '../../engine/src';

const scope: Scope = {
  trigger: { nodeText: 'Write report', count: 3, tags: ['a', 'b'], nested: { k: 'v' }, empty: null },
  steps: { fetch: { status: 200, body: { items: [{ id: 'x1' }] } } },
  run: { id: 'r1' },
  automation: { id: 'a1', name: 'Demo' },
};

describe('templates', () => {
  const t = new Templates();

  test('renders variables, nested paths and filters', () => {
    expect(t.render('Task: {{ trigger.nodeText | upcase }}', scope)).toBe('Task: WRITE REPORT');
    expect(t.render('{{ steps.fetch.body.items[0].id }}', scope)).toBe('x1');
    expect(t.render('{{ trigger.tags | join: "+" }} by {{ automation.name }}', scope)).toBe('a+b by Demo');
  });

  test('objects and arrays render as JSON inside text', () => {
    expect(t.render('n={{ trigger.nested }} t={{ trigger.tags }}', scope)).toBe('n={"k":"v"} t=["a","b"]');
  });

  test('a single output tag keeps its type as a value', () => {
    expect(t.evaluate('{{ trigger.count }}', scope)).toBe(3);
    expect(t.evaluate('{{ steps.fetch.body }}', scope)).toEqual({ items: [{ id: 'x1' }] });
    expect(t.evaluate('{{ trigger.count | plus: 1 }}', scope)).toBe(4);
    expect(t.evaluate('n{{ trigger.count }}', scope)).toBe('n3');
    expect(t.renderValue({ a: '{{ trigger.count }}', b: ['{{ trigger.nodeText }}', 5, null], c: true }, scope)).toEqual({
      a: 3,
      b: ['Write report', 5, null],
      c: true,
    });
  });

  test('an unknown variable is an error, not an empty string', () => {
    expect(() => t.render('Hi {{ trigger.nope }}', scope)).toThrow(/TEMPLATE_ERROR|undefined variable: trigger.nope/);
    expect(() => t.render('{{ nothing }}', scope)).toThrow(/undefined variable: nothing/);
    expect(() => t.render('{{ steps.other.status }}', scope)).toThrow(/undefined variable/);
    expect(() => t.evaluate('{{ trigger.nested.missing }}', scope)).toThrow(/undefined variable/);
    let error: unknown;
    try {
      t.render('{{ trigger.nope }}', scope);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ name: 'ActionError', code: 'TEMPLATE_ERROR', transient: false });
  });

  test('optional values: default, if and unless forgive a missing key; a bare one stays an error', () => {
    expect(t.render('{{ trigger.comment | default: "none" }}', scope)).toBe('none');
    expect(t.evaluate('{{ trigger.comment | default: "none" }}', scope)).toBe('none');
    expect(t.evaluate('{{ trigger.missing.deep | default: 3 }}', scope)).toBe(3);
    expect(t.render('{{ trigger.nodeText | default: "none" }}', scope)).toBe('Write report');
    expect(t.render('{% if trigger.comment %}c={{ trigger.comment }}{% else %}no comment{% endif %}', scope)).toBe('no comment');
    expect(t.render('{% unless trigger.comment %}none{% endunless %}', scope)).toBe('none');
    expect(t.render('{% if trigger.count %}{{ trigger.count }}{% endif %}', scope)).toBe('3');
    expect(() => t.render('{% if trigger.count %}{{ trigger.comment }}{% endif %}', scope)).toThrow(/undefined variable: trigger.comment/);
  });

  test('an unknown filter or bad syntax is reported by check() and fails rendering', () => {
    expect(t.check('{{ trigger.nodeText | shout }}')).toMatch(/undefined filter: shout/);
    expect(t.check('{{ trigger.nodeText ')).toMatch(/not closed/);
    expect(t.check('{{ trigger.nodeText }}')).toBeUndefined();
    expect(() => t.render('{{ trigger.nodeText | shout }}', scope)).toThrow(/undefined filter/);
  });

  test('lenient evaluation (used by is_empty) turns unknown variables into undefined', () => {
    expect(t.evaluate('{{ trigger.nope }}', scope, true) ?? undefined).toBeUndefined();
    expect(t.evaluate('{{ trigger.empty }}', scope)).toBeNull();
  });

  test('plain strings pass through untouched', () => {
    expect(t.render('no variables here', scope)).toBe('no variables here');
  });
});
