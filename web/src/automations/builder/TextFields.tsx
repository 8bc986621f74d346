import type { JSONSchema } from './kinds';
import type { Path } from './model';
import { placeholderOf, typesOf } from './fieldSchema';
import { TemplateInput } from './TemplateInput';

/** What every scalar control of a field reads: its id, schema, value and accessibility wiring. */
export interface ScalarControlProps {
  id: string;
  /** The property's name (a long template text is chosen by it). */
  name: string;
  label: string;
  path: Path;
  schema: JSONSchema;
  value: unknown;
  onChange(value: unknown): void;
  describedBy?: string;
  invalid: boolean;
}

/** A checkbox for a boolean (unset shows the schema's default); its label is inline. */
export function CheckboxControl({ id, label, schema, value, onChange, describedBy }: ScalarControlProps) {
  const checked = typeof value === 'boolean' ? value : schema.default === true;
  return (
    <label className="check">
      <input id={id} type="checkbox" checked={checked} aria-describedby={describedBy} onChange={(e) => onChange(e.target.checked)} />{' '}
      {label}
    </label>
  );
}

/** A number input honouring `minimum`/`maximum`, stepping by 1 for an integer; empty is `undefined`. */
export function NumberControl({ id, schema, value, onChange, describedBy, invalid }: ScalarControlProps) {
  return (
    <input
      id={id}
      type="number"
      value={typeof value === 'number' ? value : ''}
      placeholder={placeholderOf(schema)}
      min={schema.minimum}
      max={schema.maximum}
      step={typesOf(schema).includes('integer') ? 1 : 'any'}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
    />
  );
}

/** A field's value as text for a text control (`''` when unset). */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : String(value);
}

/**
 * A template text with the data picker (multi-line for a long text named like a message or body);
 * a number-typed field keeps a plain number as a number.
 */
export function TemplateControl({ id, name, label, path, schema, value, onChange, describedBy, invalid }: ScalarControlProps) {
  const t = typesOf(schema);
  const multiline =
    (schema.maxLength ?? 10_000) > 300 &&
    schema['x-editor'] === 'template' &&
    /text|content|message|note|prompt|input|body|value|description/i.test(name);
  return (
    <TemplateInput
      id={id}
      label={label}
      path={path}
      value={textOf(value)}
      multiline={multiline}
      placeholder={placeholderOf(schema)}
      describedBy={describedBy}
      invalid={invalid}
      onChange={(v) =>
        onChange(
          v === '' ? undefined : t.includes('number') && v.trim() !== '' && !Number.isNaN(Number(v)) && !v.includes('{{') ? Number(v) : v,
        )
      }
    />
  );
}

/** A one-line template text for a `oneOf` whose value is still text (no alternative chosen). */
export function TemplateTextControl({ id, label, path, schema, value, onChange, describedBy, invalid }: ScalarControlProps) {
  return (
    <TemplateInput
      id={id}
      label={label}
      path={path}
      value={typeof value === 'string' ? value : ''}
      placeholder={placeholderOf(schema)}
      describedBy={describedBy}
      invalid={invalid}
      onChange={(v) => onChange(v === '' ? undefined : v)}
    />
  );
}

/** A plain text input; empty is `undefined`. */
export function TextControl({ id, schema, value, onChange, describedBy, invalid }: ScalarControlProps) {
  return (
    <input
      id={id}
      type="text"
      value={textOf(value)}
      placeholder={placeholderOf(schema)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
    />
  );
}
