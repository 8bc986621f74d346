import type { FormField, FormTrigger } from '@taskspace/engine';
import { escapeHtml as e } from '../../../http/public-pages';
import type { FieldProblem } from './fields';

/**
 * The HTML of a hosted form (docs "Automations", "Form trigger"): one labelled control per field
 * (text or textarea, number, date, select, checkbox), required marks, help texts and, after a
 * refused submission, each field's message next to it with the values entered kept. No scripts;
 * every value is escaped.
 */

/** What a re-rendered page keeps: the posted values and the refused fields. */
export interface FormPageInput {
  /** The form's id (its URL is `/forms/<id>`). */
  id: string;
  /** The token of the link, carried in a hidden field. */
  token?: string;
  values?: Record<string, unknown>;
  problems?: FieldProblem[];
}

function text(value: unknown): string {
  if (Array.isArray(value)) return text(value[value.length - 1]);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function control(field: FormField, value: unknown, problem: FieldProblem | undefined): string {
  const id = `f-${field.name}`;
  const described = [field.help ? `${id}-help` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs =
    `id="${id}" name="${e(field.name)}"${field.required ? ' required' : ''}${problem ? ' aria-invalid="true"' : ''}` +
    `${described ? ` aria-describedby="${described}"` : ''}${field.placeholder ? ` placeholder="${e(field.placeholder)}"` : ''}`;
  const mark = field.required ? ' <span aria-hidden="true">*</span>' : '';
  const help = field.help ? `<small id="${id}-help">${e(field.help)}</small>` : '';
  const error = problem ? `<p class="error" id="${id}-error">${e(problem.message)}</p>` : '';
  if (field.type === 'checkbox') {
    const checked = value === true || ['on', 'true', '1', 'yes'].includes(text(value).toLowerCase());
    return `<label class="check"><input type="checkbox" value="on" ${attrs}${checked ? ' checked' : ''}> ${e(field.label)}${mark}</label>${help}${error}`;
  }
  const label = `<label for="${id}">${e(field.label)}${mark}</label>`;
  const current = text(value);
  switch (field.type) {
    case 'text':
      return field.multiline
        ? `${label}<textarea rows="5" ${attrs}>${e(current)}</textarea>${help}${error}`
        : `${label}<input type="text" ${attrs} value="${e(current)}">${help}${error}`;
    case 'number':
      return `${label}<input type="number" step="any" ${attrs} value="${e(current)}">${help}${error}`;
    case 'date':
      return `${label}<input type="date" ${attrs} value="${e(current)}">${help}${error}`;
    case 'choice': {
      const options = (field.options ?? [])
        .map((o) => `<option value="${e(o)}"${o === current ? ' selected' : ''}>${e(o)}</option>`)
        .join('');
      return `${label}<select ${attrs}><option value="">Choose…</option>${options}</select>${help}${error}`;
    }
  }
}

/** The body of the form page (inside `formPage`, which adds the heading and the policy headers). */
export function renderForm(form: FormTrigger, input: FormPageInput): string {
  const problems = new Map((input.problems ?? []).map((p) => [p.field, p]));
  const summary =
    problems.size > 0
      ? `<p class="error" role="alert">Please correct the ${problems.size === 1 ? 'field' : `${problems.size} fields`} marked below.</p>`
      : '';
  const fields = form.fields.map((f) => `<div>${control(f, input.values?.[f.name], problems.get(f.name))}</div>`).join('\n');
  const token = input.token === undefined ? '' : `<input type="hidden" name="token" value="${e(input.token)}">`;
  return `${form.description ? `<p>${e(form.description)}</p>` : ''}${summary}
<form method="post" action="/forms/${encodeURIComponent(input.id)}">${token}
${fields}
<button type="submit">${e(form.submitLabel ?? 'Submit')}</button>
</form>`;
}
