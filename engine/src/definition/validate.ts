/**
 * Validating a definition: the published schema (ajv), then what a schema cannot express
 * (unique step ids, template syntax, cron and time zones, static regexes, forbidden response
 * headers, form fields). Problems carry a field path and a machine-readable reason.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { Cron } from 'croner';
import { regexOf } from './patterns';
import { AUTOMATION_SCHEMA } from './schema';
import type { AutomationDefinition, Conditions, FormTrigger } from './types';
import { responseHeaderRefusal } from './response-headers';
import { walkActions } from './walk';
import { codeSyntaxError } from '../code/syntax';

/** One problem found in a definition. `path` uses dots and brackets, e.g. `actions[1].url`. */
export interface DefinitionProblem {
  path: string;
  /** Machine-readable reason: required, invalid_type, invalid_value, duplicate, invalid_format, ... */
  reason: string;
  message: string;
}

/** Result of {@link validateDefinition}. */
export type ValidationResult = { ok: true; definition: AutomationDefinition } | { ok: false; problems: DefinitionProblem[] };

const ajv = new Ajv({ allErrors: false, strict: false, verbose: true });
const schemaCheck = ajv.compile(AUTOMATION_SCHEMA);

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

function pathOf(segments: (string | number)[]): string {
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

/**
 * Validates a definition against {@link AUTOMATION_SCHEMA} and the rules the schema cannot
 * express, and returns a normalized copy (missing step ids filled in as `step<n>`, n counting
 * all actions in document order). `checkTemplate` checks one template's syntax (see
 * `Templates.check`); without it templates are not checked.
 * Never throws on bad input.
 */
export function validateDefinition(input: unknown, checkTemplate?: (template: string) => string | undefined): ValidationResult {
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
        if (Array.isArray(rec.then)) collect(rec.then);
        if (Array.isArray(rec.else)) collect(rec.else);
        if (Array.isArray(rec.actions)) collect(rec.actions);
        const onError = rec.onError as { then?: unknown } | undefined;
        if (onError && typeof onError === 'object' && Array.isArray(onError.then)) collect(onError.then);
        if (rec.branches && typeof rec.branches === 'object')
          for (const list of Object.values(rec.branches)) if (Array.isArray(list)) collect(list);
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
  if (!schemaCheck(copy)) return { ok: false, problems: [bestProblem(schemaCheck.errors ?? [])] };
  const definition = copy as AutomationDefinition;

  const seen = new Set<string>();
  walkActions(definition.actions, (a, path) => {
    if (seen.has(a.id)) problems.push({ path: pathOf([...path, 'id']), reason: 'duplicate', message: `step id '${a.id}' is used twice` });
    seen.add(a.id);
    const check = (value: unknown, where: (string | number)[]) => {
      if (typeof value === 'string' && checkTemplate) {
        const error = checkTemplate(value);
        if (error) problems.push({ path: pathOf(where), reason: 'invalid_template', message: `${pathOf(where)}: ${error}` });
      } else if (Array.isArray(value)) value.forEach((v, i) => check(v, [...where, i]));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) check(v, [...where, k]);
    };
    for (const [key, value] of Object.entries(a)) {
      if (
        key === 'id' ||
        key === 'type' ||
        key === 'name' ||
        key === 'retry' ||
        key === 'then' ||
        key === 'else' ||
        key === 'approvers' ||
        key === 'onError'
      )
        continue;
      if (a.type === 'parallel' && key === 'branches') continue;
      if (a.type === 'loop' && key === 'actions') continue;
      if (a.type === 'code' && key === 'code') {
        const error = codeSyntaxError(a.code);
        if (error) problems.push({ path: pathOf([...path, key]), reason: 'invalid_code', message: `${pathOf([...path, key])}: ${error}` });
        continue;
      }
      check(value, [...path, key]);
    }
    if (a.type === 'parallel') {
      // One run waits on one thing at a time: a person's decision or an event cannot wait beside another branch.
      for (const [name, list] of Object.entries(a.branches)) {
        walkActions(
          list,
          (inner, at) => {
            if (inner.type === 'approval' || inner.type === 'wait.event') {
              const where = pathOf(at);
              problems.push({
                path: where,
                reason: 'invalid_value',
                message: `${where}: a parallel branch may not hold ${inner.type} steps`,
              });
            }
          },
          [...path, 'branches', name],
        );
      }
    }
    if (a.type === 'delay' && a.until !== undefined && [a.seconds, a.minutes, a.hours, a.days].some((v) => v !== undefined)) {
      problems.push({
        path: pathOf([...path, 'until']),
        reason: 'invalid_value',
        message: `${pathOf(path)}: give either until or a duration, not both`,
      });
    }
    if (a.type === 'respond') {
      for (const name of Object.keys(a.headers ?? {})) {
        const refusal = responseHeaderRefusal(name, a.status ?? 200);
        if (refusal) {
          const where = pathOf([...path, 'headers', name]);
          problems.push({ path: where, reason: 'forbidden_header', message: `${where}: ${refusal}` });
        }
      }
    }
    if (a.type === 'branch') {
      a.conditions.anyOf.forEach((g, gi) =>
        g.allOf.forEach((r, ri) => {
          if (r.operator === 'matches' && typeof r.right === 'string' && !r.right.includes('{')) {
            try {
              regexOf(r.right);
            } catch (error) {
              const where = pathOf([...path, 'conditions', 'anyOf', gi, 'allOf', ri, 'right']);
              problems.push({ path: where, reason: 'invalid_format', message: `${where}: ${(error as Error).message}` });
            }
          }
        }),
      );
    }
  });
  const trigger = definition.trigger;
  if (trigger.type === 'schedule' && trigger.cron !== undefined) {
    try {
      new Cron(trigger.cron, { paused: true, timezone: trigger.timezone });
    } catch (error) {
      problems.push({ path: 'trigger.cron', reason: 'invalid_format', message: `trigger.cron: ${(error as Error).message}` });
    }
  }
  if (trigger.type === 'schedule' && trigger.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: trigger.timezone });
    } catch {
      problems.push({
        path: 'trigger.timezone',
        reason: 'invalid_value',
        message: `trigger.timezone: unknown time zone '${trigger.timezone}'`,
      });
    }
  }
  if (trigger.type === 'form') problems.push(...formProblems(trigger));
  const filter = (trigger as { filter?: Conditions }).filter;
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

/** What the schema cannot say about a form: unique field names, options exactly on `choice` fields. */
function formProblems(form: FormTrigger): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const names = new Set<string>();
  if (form.redirectUrl !== undefined && !isRedirectUrl(form.redirectUrl)) {
    problems.push({
      path: 'trigger.redirectUrl',
      reason: 'invalid_format',
      message: 'trigger.redirectUrl must be an absolute http(s) URL without spaces, line breaks or other control characters',
    });
  }
  form.fields.forEach((f, i) => {
    const at = (key: string) => pathOf(['trigger', 'fields', i, key]);
    if (names.has(f.name))
      problems.push({ path: at('name'), reason: 'duplicate', message: `${at('name')}: the field name '${f.name}' is used twice` });
    names.add(f.name);
    if (f.type === 'choice' && f.options === undefined)
      problems.push({ path: at('options'), reason: 'required', message: `${at('options')} is required for a choice field` });
    if (f.type !== 'choice' && f.options !== undefined)
      problems.push({ path: at('options'), reason: 'unknown_field', message: `${at('options')} only applies to choice fields` });
    if (f.type !== 'text' && f.multiline !== undefined)
      problems.push({ path: at('multiline'), reason: 'unknown_field', message: `${at('multiline')} only applies to text fields` });
  });
  return problems;
}

/** Spaces, line breaks and other control characters (C0, DEL, C1): never part of a redirect target. */
const NOT_IN_URL = /[\u0000-\u0020\u007f-\u009f]/;

/**
 * Whether `url` may be a form's `redirectUrl` (sent as the `Location` of a 303): an absolute
 * `http:` or `https:` URL, written without spaces or control characters (the URL parser would
 * silently drop a line break, so what was saved would not be what is sent).
 */
export function isRedirectUrl(url: string): boolean {
  if (NOT_IN_URL.test(url) || !URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}
