/**
 * Branch conditions: any-of groups of all-of rules (README "Automations", "Actions").
 *
 * Operands are templates evaluated with {@link Templates.evaluate}, so `{{ steps.fetch.status }}`
 * is the number 200. Comparison rules:
 * - equals / not_equals: numerically when both sides are numbers (or numeric strings),
 *   otherwise as strings (objects and arrays as JSON);
 * - contains / not_contains: element membership when the left side is an array, substring otherwise;
 * - starts_with / ends_with: on strings;
 * - matches: `right` is a regular expression, `/source/flags` or a bare source;
 * - is_empty / is_not_empty: undefined, null, '', whitespace-only strings, [] and {} are empty;
 *   an unknown variable counts as empty here (and only here);
 * - gt, lt, gte, lte: numerically when both sides are numbers, otherwise by string order.
 */
import { regexOf, type Conditions, type Operator, type Pattern, type Rule } from './definition';
import { ActionError } from './errors';
import type { Scope, Templates } from './templates';

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

function asString(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function equal(a: unknown, b: unknown): boolean {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  return asString(a) === asString(b);
}

function order(a: unknown, b: unknown): number {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  const sa = asString(a);
  const sb = asString(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * Applies one operator to two already evaluated operands.
 * @throws ActionError INVALID_REGEX (permanent) when `matches` gets a bad pattern.
 */
export function compare(left: unknown, operator: Operator, right: unknown): boolean {
  switch (operator) {
    case 'equals':
      return equal(left, right);
    case 'not_equals':
      return !equal(left, right);
    case 'contains':
    case 'not_contains': {
      const has = Array.isArray(left) ? left.some((item) => equal(item, right)) : asString(left).includes(asString(right));
      return operator === 'contains' ? has : !has;
    }
    case 'starts_with':
      return asString(left).startsWith(asString(right));
    case 'ends_with':
      return asString(left).endsWith(asString(right));
    case 'matches': {
      let re: Pattern;
      try {
        re = regexOf(asString(right));
      } catch (error) {
        throw new ActionError('INVALID_REGEX', (error as Error).message, false);
      }
      return re.test(asString(left));
    }
    case 'is_empty':
      return isEmpty(left);
    case 'is_not_empty':
      return !isEmpty(left);
    case 'gt':
      return order(left, right) > 0;
    case 'lt':
      return order(left, right) < 0;
    case 'gte':
      return order(left, right) >= 0;
    case 'lte':
      return order(left, right) <= 0;
  }
}

function operand(templates: Templates, value: Rule['left'] | undefined, scope: Scope, lenient: boolean, field: string): unknown {
  return typeof value === 'string' ? templates.evaluate(value, scope, lenient, field) : value;
}

/** One evaluated rule, as journalled in the branch step's input. */
export interface EvaluatedRule {
  group: number;
  left: unknown;
  operator: Operator;
  right?: unknown;
  result: boolean;
}

/** The evaluated result of {@link evaluateConditions}. */
export interface ConditionResult {
  result: boolean;
  /** Index of the first group that held, or -1. */
  matchedGroup: number;
  /** The rules evaluated, in order (evaluation of a group stops at its first false rule). */
  evaluated: EvaluatedRule[];
}

/**
 * Evaluates any-of groups of all-of rules, stopping at the first group that holds.
 * @throws ActionError TEMPLATE_ERROR or INVALID_REGEX (permanent).
 */
export function evaluateConditions(templates: Templates, conditions: Conditions, scope: Scope): ConditionResult {
  const evaluated: EvaluatedRule[] = [];
  for (let g = 0; g < conditions.anyOf.length; g++) {
    const holds = conditions.anyOf[g]!.allOf.every((rule, r) => {
      const lenient = rule.operator === 'is_empty' || rule.operator === 'is_not_empty';
      const at = `conditions.anyOf[${g}].allOf[${r}]`;
      const left = operand(templates, rule.left, scope, lenient, `${at}.left`);
      const right = lenient ? undefined : operand(templates, rule.right, scope, false, `${at}.right`);
      const result = compare(left, rule.operator, right);
      const entry: EvaluatedRule = { group: g, left: left ?? null, operator: rule.operator, result };
      if (!lenient) entry.right = right ?? null;
      evaluated.push(entry);
      return result;
    });
    if (holds) return { result: true, matchedGroup: g, evaluated };
  }
  return { result: false, matchedGroup: -1, evaluated };
}
