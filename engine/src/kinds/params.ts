import { permanent } from '../errors';
import type { Scope, Templates } from '../templates';

/**
 * Renders a required string parameter.
 * @throws ActionError INVALID_INPUT when it renders empty.
 */
export function requiredString(templates: Templates, value: string, scope: Scope, field: string): string {
  const out = templates.render(value, scope, field);
  if (out === '') throw permanent('INVALID_INPUT', `${field} rendered to an empty string`, { field });
  return out;
}

/** Renders an optional string parameter (`field` is named in a template error); undefined when absent or rendered empty. */
export function optionalString(templates: Templates, value: string | undefined, scope: Scope, field?: string): string | undefined {
  if (value === undefined) return undefined;
  const out = templates.render(value, scope, field);
  return out === '' ? undefined : out;
}
