/**
 * Validating a definition: the published schema (ajv), then what a schema cannot express
 * (unique step ids, template syntax, cron and time zones, static regexes, forbidden response
 * headers, form fields). Problems carry a field path and a machine-readable reason.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { regexOf } from './patterns';
import type { AutomationDefinition, Conditions } from './types';
import { walkActions } from './walk';

/** One problem found in a definition. `path` uses dots and brackets, e.g. `actions[1].url`. */
export interface DefinitionProblem {
  path: string;
  /** Machine-readable reason: required, invalid_type, invalid_value, duplicate, invalid_format, ... */
  reason: string;
  message: string;
}

/** Result of {@link validateDefinition}. */
export type ValidationResult = { ok: true; definition: AutomationDefinition } | { ok: false; problems: DefinitionProblem[] };

/** What a validator needs to know of the kinds (a `KindRegistry`). */
export interface DefinitionRules {
  /** The automation schema, compiled. */
  schemaCheck: ValidateFunction;
  /** The action kind of a type: its step lists, fields that are not templates, and own checks. */
  action(type: string):
    | {
        nested?: readonly string[];
        literal?: readonly string[];
        check?(action: Record<string, unknown>, path: (string | number)[]): DefinitionProblem[];
        ownSchema?: boolean;
      }
    | undefined;
  /** The compiled schema of a step (or, with `trigger`, the trigger) of a kind with `ownSchema` (a `KindRegistry`'s). */
  stepCheck?(type: string, trigger?: boolean): ValidateFunction;
  /** The trigger kind of a type: its own checks. */
  trigger(type: string): { check?(trigger: Record<string, unknown>): DefinitionProblem[]; ownSchema?: boolean } | undefined;
}

/**
 * The machine-readable `reason` for each JSON-schema (ajv) keyword, shared with the server's
 * request validation so both report failures the same way (README "Errors").
 */
export const SCHEMA_REASONS: Readonly<Record<string, string>> = {
  required: 'required',
  format: 'invalid_format',
  type: 'invalid_type',
  enum: 'invalid_value',
  const: 'invalid_value',
  oneOf: 'invalid_value',
  anyOf: 'invalid_value',
  additionalProperties: 'unknown_field',
  pattern: 'invalid_format',
  maxLength: 'too_long',
  minLength: 'too_short',
  maxItems: 'too_many',
  minItems: 'too_few',
  maximum: 'too_large',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  maxProperties: 'too_many',
  minProperties: 'too_few',
  propertyNames: 'invalid_format',
  uniqueItems: 'duplicate',
};

/** A field path from its segments: `actions[1].url`. */
export function pathOf(segments: (string | number)[]): string {
  return segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

function problemOf(error: ErrorObject): DefinitionProblem {
  const segments: (string | number)[] = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
  const extra =
    (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
    (error.params as { additionalProperty?: string }).additionalProperty;
  if (extra) segments.push(extra);
  const path = pathOf(segments) || 'definition';
  const name = error.propertyName;
  const message =
    name === undefined ? `${path} ${error.message ?? 'is invalid'}` : `${path}: the name '${name}' ${error.message ?? 'is invalid'}`;
  return { path, reason: SCHEMA_REASONS[error.keyword] ?? error.keyword, message };
}

/**
 * The most useful schema problem: an "one of these fields" group (`anyOf`/`oneOf` of
 * `required`) as one message, else the first real error (ajv adds an `if` error after a
 * failed `then`).
 */
function bestProblem(errors: ErrorObject[]): DefinitionProblem {
  const group = errors.find((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && Array.isArray(e.schema));
  const branches = group ? (group.schema as { required?: string[]; properties?: { type?: { const?: unknown } } }[]) : [];
  // A union told apart by `type` (an HTTP body: json or form): name each shape.
  if (group && branches.every((b) => typeof b.properties?.type?.const === 'string')) {
    const base = problemOf({ ...group, params: {} });
    const shapes = branches.map(
      (b) =>
        `{type: "${String(b.properties!.type!.const)}"${(b.required ?? [])
          .filter((f) => f !== 'type')
          .map((f) => `, ${f}`)
          .join('')}}`,
    );
    return { path: base.path, reason: 'invalid_value', message: `${base.path} must be one of: ${shapes.join(' or ')}` };
  }
  const alternatives = branches.map((b) => b.required?.[0]);
  if (group && alternatives.every((a) => a !== undefined)) {
    const base = problemOf({ ...group, params: {} });
    const exactlyOne = group.keyword === 'oneOf';
    return {
      path: base.path,
      reason: 'required',
      message: `${base.path} needs ${exactlyOne ? 'exactly ' : ''}one of: ${alternatives.join(', ')}`,
    };
  }
  return problemOf(errors.find((e) => e.keyword !== 'if') ?? errors[0]!);
}

/** Keys of every action that are not templates. */
const NOT_TEMPLATES = new Set(['id', 'type', 'name', 'retry', 'onError', 'disabled', 'timeoutMs']);

/**
 * Validates a definition against the schema of `rules` and the rules the schema cannot express
 * (unique step ids, template syntax, each kind's own checks, trigger filters), and returns a
 * normalized copy (missing step ids filled in as `step<n>`, n counting all actions in document
 * order). `checkTemplate` checks one template's syntax (see `Templates.check`); without it
 * templates are not checked. Never throws on bad input. The engine's `validateDefinition` is
 * this with the built-in kinds.
 */
export function checkDefinition(
  rules: DefinitionRules,
  input: unknown,
  checkTemplate?: (template: string) => string | undefined,
): ValidationResult {
  // Fill ids first so that the schema sees complete actions (ids are optional on input).
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(input ?? null));
  } catch {
    return { ok: false, problems: [{ path: 'definition', reason: 'invalid_type', message: 'definition must be JSON' }] };
  }
  const used = new Set<string>();
  const problems: DefinitionProblem[] = [];
  const raw = copy as { actions?: unknown };
  if (copy && typeof copy === 'object' && Array.isArray(raw.actions)) {
    const all: Record<string, unknown>[] = [];
    const collect = (list: unknown[]) => {
      for (const a of list) {
        if (!a || typeof a !== 'object') continue;
        const rec = a as Record<string, unknown>;
        all.push(rec);
        for (const key of rules.action(String(rec.type))?.nested ?? []) {
          const held = rec[key];
          if (Array.isArray(held)) collect(held);
          else if (held && typeof held === 'object') for (const list of Object.values(held)) if (Array.isArray(list)) collect(list);
        }
        const onError = rec.onError as { then?: unknown } | undefined;
        if (onError && typeof onError === 'object' && Array.isArray(onError.then)) collect(onError.then);
      }
    };
    collect(raw.actions);
    for (const a of all) if (typeof a.id === 'string') used.add(a.id);
    let n = 0;
    for (const a of all) {
      if (a.id !== undefined) continue;
      do n++;
      while (used.has(`step${n}`));
      a.id = `step${n}`;
      used.add(a.id as string);
    }
  }
  if (!rules.schemaCheck(copy)) return { ok: false, problems: [bestProblem(rules.schemaCheck.errors ?? [])] };
  const definition = copy as AutomationDefinition;

  const seen = new Set<string>();
  walkActions(
    definition.actions,
    (a, path) => {
      if (seen.has(a.id)) problems.push({ path: pathOf([...path, 'id']), reason: 'duplicate', message: `step id '${a.id}' is used twice` });
      seen.add(a.id);
      const kind = rules.action(a.type);
      const skip = new Set([...(kind?.nested ?? []), ...(kind?.literal ?? [])]);
      const check = (value: unknown, where: (string | number)[]) => {
        if (typeof value === 'string' && checkTemplate) {
          const error = checkTemplate(value);
          if (error) problems.push({ path: pathOf(where), reason: 'invalid_template', message: `${pathOf(where)}: ${error}` });
        } else if (Array.isArray(value)) value.forEach((v, i) => check(v, [...where, i]));
        else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) check(v, [...where, k]);
      };
      for (const [key, value] of Object.entries(a)) if (!NOT_TEMPLATES.has(key) && !skip.has(key)) check(value, [...path, key]);
      if (kind?.ownSchema && rules.stepCheck) {
        const stepCheck = rules.stepCheck(a.type);
        if (!stepCheck(a)) {
          const prefix = path.map((s) => `/${s}`).join('');
          problems.push(bestProblem((stepCheck.errors ?? []).map((e) => ({ ...e, instancePath: prefix + e.instancePath }))));
          return;
        }
      }
      if (kind?.check) problems.push(...kind.check(a as unknown as Record<string, unknown>, path));
    },
    undefined,
    rules,
  );
  const trigger = definition.trigger as unknown as Record<string, unknown>;
  const triggerKind = rules.trigger(definition.trigger.type);
  if (triggerKind?.ownSchema && rules.stepCheck) {
    const triggerCheck = rules.stepCheck(definition.trigger.type, true);
    if (!triggerCheck(trigger))
      return {
        ok: false,
        problems: [bestProblem((triggerCheck.errors ?? []).map((e) => ({ ...e, instancePath: `/trigger${e.instancePath}` })))],
      };
  }
  if (triggerKind?.check) problems.push(...triggerKind.check(trigger));
  const filter = trigger.filter as Conditions | undefined;
  if (filter !== undefined) problems.push(...filterProblems(filter, checkTemplate));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, definition };
}

/** A trigger filter's template syntax and static `matches` patterns, each named by its field (`trigger.filter.anyOf[0].allOf[1].right`). */
function filterProblems(filter: Conditions, checkTemplate?: (template: string) => string | undefined): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  filter.anyOf.forEach((g, gi) =>
    g.allOf.forEach((r, ri) => {
      const at = (side: string) => pathOf(['trigger', 'filter', 'anyOf', gi, 'allOf', ri, side]);
      for (const side of ['left', 'right'] as const) {
        const value = r[side];
        const error = typeof value === 'string' && checkTemplate ? checkTemplate(value) : undefined;
        if (error) problems.push({ path: at(side), reason: 'invalid_template', message: `${at(side)}: ${error}` });
      }
      if (r.operator === 'matches' && typeof r.right === 'string' && !r.right.includes('{')) {
        try {
          regexOf(r.right);
        } catch (error) {
          problems.push({ path: at('right'), reason: 'invalid_format', message: `${at('right')}: ${(error as Error).message}` });
        }
      }
    }),
  );
  return problems;
}
