/**
 * "Form": the automation's hosted form (`/forms/<id>`, spec 6.1 "form submission"). The page is
 * generated from `fields`; each field's value becomes a trigger variable of its name (text,
 * number, `YYYY-MM-DD` date, boolean checkbox, chosen option). Afterwards the page shows
 * `thankYou` (default "Thank you!") or redirects to `redirectUrl`. A `filter` is evaluated when
 * the form is submitted: a refused submission starts no run.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { DefinitionProblem } from '../../../definition/validate';
import type { TriggerBase } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { Enum, VALUE_NAME } from '../../parts';

/** Field kinds of a form trigger. */
export const FORM_FIELD_TYPES = ['text', 'number', 'choice', 'date', 'checkbox'] as const;

const field = Type.Object(
  {
    name: Type.String({
      pattern: VALUE_NAME,
      title: 'Variable name',
      description: 'Letters, digits and _, unique in the form; the value is trigger.<name>.',
    }),
    label: Type.String({ minLength: 1, maxLength: 200, title: 'Label' }),
    type: Enum(FORM_FIELD_TYPES, { title: 'Kind' }),
    required: Type.Optional(Type.Boolean({ title: 'Required', default: false })),
    options: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200, title: 'Option' }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        title: 'Options',
        description: 'choice fields only, and required for them.',
      }),
    ),
    multiline: Type.Optional(Type.Boolean({ title: 'Several lines', description: 'text fields only.' })),
    help: Type.Optional(Type.String({ maxLength: 500, title: 'Help text' })),
    placeholder: Type.Optional(Type.String({ maxLength: 200, title: 'Placeholder' })),
  },
  { additionalProperties: false, title: 'Field' },
);

/** One field of a form trigger; its value becomes `trigger.<name>`. */
export type FormField = Static<typeof field>;

const parameters = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, title: 'Page heading' }),
  description: Type.Optional(Type.String({ maxLength: 2000, title: 'Description' })),
  fields: Type.Array(field, { minItems: 1, maxItems: 50, title: 'Fields' }),
  submitLabel: Type.Optional(Type.String({ minLength: 1, maxLength: 100, title: 'Submit button', default: 'Submit' })),
  thankYou: Type.Optional(Type.String({ maxLength: 2000, title: 'Thank-you message', default: 'Thank you!' })),
  redirectUrl: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '^https?://',
      title: 'Redirect to',
      description: 'An absolute http(s) URL shown after a submission, instead of the message.',
    }),
  ),
  requireToken: Type.Optional(
    Type.Boolean({
      title: 'Require a token',
      default: false,
      description: '?token= on the page link, or Authorization: Bearer for JSON posts.',
    }),
  ),
});

/** The fields of a form trigger (see the module comment). */
export type FormTriggerFields = Static<typeof parameters>;

/** Spaces, line breaks and other control characters (C0, DEL, C1): never part of a redirect target. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
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

/** What the schema cannot say about a form: unique field names, options exactly on `choice` fields. */
function formProblems(form: FormTriggerFields): DefinitionProblem[] {
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
    const at = (key: string) => `trigger.fields[${i}].${key}`;
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

/** `form`. */
export const FORM_KIND = defineTrigger({
  type: 'form',
  title: 'Form submitted',
  summary: "When someone submits the automation's hosted form.",
  category: 'Inbound',
  icon: 'clipboard-list',
  source: 'inbound',
  parameters,
  variables: (trigger) => ({ names: ((trigger.fields as FormField[] | undefined) ?? []).map((f) => f.name), open: false }),
  check: (trigger) => formProblems(trigger as unknown as FormTriggerFields),
});

/** Fires when the automation's hosted form (`/forms/<id>`) is submitted. */
export type FormTrigger = TriggerBase & { type: 'form' } & FormTriggerFields;

declare module '../../../definition/types' {
  /** The form trigger (see {@link TriggerTypes}). */
  interface TriggerTypes {
    form: FormTrigger;
  }
}
