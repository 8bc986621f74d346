import { compare, evaluateConditions, Templates, OPERATORS, type Operator, type Scope } from '../../engine/src';

const t = new Templates();
const scope: Scope = {
  trigger: { title: 'Invoice 42 overdue', amount: '1500', count: 7, list: ['red', 'green'], blank: '  ', none: null },
  steps: { fetch: { status: 200, body: { ok: true, items: [] } } },
  run: {},
  automation: {},
};

const cases: [Operator, unknown, unknown, boolean][] = [
  ['equals', 'abc', 'abc', true],
  ['equals', 'abc', 'ABC', false],
  ['equals', '200', 200, true],
  ['equals', '1.0', '1', true],
  ['not_equals', 'a', 'b', true],
  ['not_equals', 5, '5', false],
  ['contains', 'Invoice 42 overdue', '42', true],
  ['contains', ['red', 'green'], 'green', true],
  ['contains', ['red', 'green'], 'gre', false],
  ['not_contains', 'Invoice', 'x', true],
  ['not_contains', ['a'], 'a', false],
  ['starts_with', 'Invoice 42', 'Inv', true],
  ['starts_with', 'Invoice 42', '42', false],
  ['ends_with', 'Invoice 42', '42', true],
  ['ends_with', 'Invoice 42', 'Inv', false],
  ['matches', 'Invoice 42', '^Invoice \\d+$', true],
  ['matches', 'invoice', '/^INVOICE$/i', true],
  ['matches', 'invoice', '^INVOICE$', false],
  ['is_empty', '', undefined, true],
  ['is_empty', '   ', undefined, true],
  ['is_empty', [], undefined, true],
  ['is_empty', {}, undefined, true],
  ['is_empty', null, undefined, true],
  ['is_empty', 0, undefined, false],
  ['is_not_empty', 'x', undefined, true],
  ['is_not_empty', [], undefined, false],
  ['gt', 10, 9, true],
  ['gt', '10', '9', true], // numeric, not string order
  ['gt', 'b', 'a', true], // string order when not both numbers
  ['gt', 5, 5, false],
  ['lt', '9', '10', true],
  ['lt', 5, 5, false],
  ['gte', 5, 5, true],
  ['gte', '4.5', 5, false],
  ['lte', 5, 5, true],
  ['lte', 6, '5', false],
];

describe('condition operators', () => {
  test.each(cases)('%s(%j, %j) is %s', (op, left, right, expected) => {
    expect(compare(left, op, right)).toBe(expected);
  });

  test('every operator is covered by the table', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(OPERATORS));
  });

  test('a bad regular expression is a permanent INVALID_REGEX error', () => {
    expect(() => compare('x', 'matches', '(')).toThrow(expect.objectContaining({ code: 'INVALID_REGEX', transient: false }));
    // RE2 matching is linear: a pattern that backtracks catastrophically in JavaScript finishes at once.
    expect(compare('a'.repeat(30000) + '!', 'matches', '^(a+)+$')).toBe(false);
    expect(compare('line one\nLINE two', 'matches', '/^line two$/im')).toBe(true);
    expect(() => compare('aa', 'matches', '(a)\\1')).toThrow(expect.objectContaining({ code: 'INVALID_REGEX' }));
  });
});

describe('any-of groups of all-of rules over templates', () => {
  test('typed operands from single output tags, first matching group reported', () => {
    const result = evaluateConditions(
      t,
      {
        anyOf: [
          { allOf: [{ left: '{{ steps.fetch.status }}', operator: 'equals', right: 404 }] },
          {
            allOf: [
              { left: '{{ steps.fetch.status }}', operator: 'lt', right: 300 },
              { left: '{{ trigger.amount }}', operator: 'gte', right: '1000' },
              { left: '{{ trigger.title }}', operator: 'contains', right: 'overdue' },
            ],
          },
        ],
      },
      scope,
    );
    expect(result.result).toBe(true);
    expect(result.matchedGroup).toBe(1);
    expect(result.evaluated[0]).toEqual({ group: 0, left: 200, operator: 'equals', right: 404, result: false });
  });

  test('all-of needs every rule; any-of with no true group is false', () => {
    const result = evaluateConditions(
      t,
      {
        anyOf: [
          {
            allOf: [
              { left: '{{ trigger.count }}', operator: 'gt', right: 5 },
              { left: '{{ trigger.list }}', operator: 'contains', right: 'blue' },
            ],
          },
          { allOf: [{ left: '{{ steps.fetch.body.items }}', operator: 'is_not_empty' }] },
        ],
      },
      scope,
    );
    expect(result).toMatchObject({ result: false, matchedGroup: -1 });
  });

  test('is_empty treats an unknown variable as empty; other operators fail on it', () => {
    expect(evaluateConditions(t, { anyOf: [{ allOf: [{ left: '{{ trigger.nodeNote }}', operator: 'is_empty' }] }] }, scope).result).toBe(
      true,
    );
    expect(evaluateConditions(t, { anyOf: [{ allOf: [{ left: '{{ trigger.blank }}', operator: 'is_empty' }] }] }, scope).result).toBe(true);
    expect(() =>
      evaluateConditions(t, { anyOf: [{ allOf: [{ left: '{{ trigger.nodeNote }}', operator: 'equals', right: 'x' }] }] }, scope),
    ).toThrow(/undefined variable/);
  });
});
