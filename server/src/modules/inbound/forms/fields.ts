import type { FormField, FormTrigger } from '@taskspace/engine';
import { isCalendarDate } from '../../tasks/dates';

/**
 * The values of a form submission (docs "Automations", "Form trigger"), checked against the
 * trigger's fields. Every field gets a variable, so templates never meet a missing key: text `''`
 * when left empty, number, choice and date `null`, checkbox `false`. Fields the form does not
 * define are ignored.
 */

/** Longest accepted text value, in characters. */
export const FORM_TEXT_MAX = 10_000;

/** One refused field: `field` is the field's name. */
export interface FieldProblem {
  field: string;
  reason: 'required' | 'invalid_type' | 'invalid_value' | 'invalid_format' | 'too_long';
  message: string;
}

/** The outcome of {@link formValues}: the trigger variables, or every refused field. */
export type FormValues = { ok: true; values: Record<string, unknown> } | { ok: false; problems: FieldProblem[] };

const CHECKED = new Set(['on', 'true', '1', 'yes']);
const UNCHECKED = new Set(['', 'off', 'false', '0', 'no']);

/** A checkbox value: a boolean, or the text a browser or a script sends for one; undefined when it is neither. */
function checkboxValue(value: unknown): boolean | undefined {
  if (value === undefined || value === null || typeof value === 'boolean') return value === true;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return CHECKED.has(text) ? true : UNCHECKED.has(text) ? false : undefined;
}

/** One field's value, or the problem with it. `raw` is what was posted (a form's text or a JSON value). */
function fieldValue(field: FormField, raw: unknown): { value: unknown } | { problem: FieldProblem } {
  const problem = (reason: FieldProblem['reason'], message: string) => ({
    problem: { field: field.name, reason, message: `${field.label}: ${message}` },
  });
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (field.type === 'checkbox') {
    const checked = checkboxValue(value);
    if (checked === undefined) return problem('invalid_type', 'must be true or false');
    if (field.required && !checked) return problem('required', 'must be ticked');
    return { value: checked };
  }
  if (blank) return field.required ? problem('required', 'is required') : { value: field.type === 'text' ? '' : null };
  switch (field.type) {
    case 'text': {
      if (typeof value !== 'string') return problem('invalid_type', 'must be text');
      if (value.length > FORM_TEXT_MAX) return problem('too_long', `must be at most ${FORM_TEXT_MAX} characters`);
      return { value };
    }
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
      return Number.isFinite(n) ? { value: n } : problem('invalid_type', 'must be a number');
    }
    case 'choice': {
      if (typeof value !== 'string' || !(field.options ?? []).includes(value))
        return problem('invalid_value', `must be one of: ${(field.options ?? []).join(', ')}`);
      return { value };
    }
    case 'date': {
      if (typeof value !== 'string' || !isCalendarDate(value.trim())) return problem('invalid_format', 'must be a date (YYYY-MM-DD)');
      return { value: value.trim() };
    }
  }
}

/**
 * Checks a submission (form fields or a JSON object) against the form's fields.
 * Never throws; a body that is not an object refuses every required field.
 */
export function formValues(form: FormTrigger, body: unknown): FormValues {
  const posted = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const values: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const field of form.fields) {
    const result = fieldValue(field, Object.hasOwn(posted, field.name) ? posted[field.name] : undefined);
    if ('problem' in result) problems.push(result.problem);
    else values[field.name] = result.value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}
