import type { ReactNode } from 'react';
import type { JSONSchema } from './kinds';
import type { Path } from './model';
import { alternativeOf, initialOf, typesOf, type FieldComponent } from './fieldSchema';
import { ObjectOrValue } from './GroupFields';

/** Props of {@link EnumControl}. */
export interface EnumControlProps {
  id: string;
  schema: JSONSchema & { enum: unknown[] };
  value: unknown;
  onChange(value: unknown): void;
  required?: boolean;
  describedBy?: string;
  invalid: boolean;
}

/** A select of the schema's `enum` values (with "Choose…" or "Default (…)" while unset or optional). */
export function EnumControl({ id, schema, value, onChange, required, describedBy, invalid }: EnumControlProps) {
  return (
    <select
      id={id}
      value={value === undefined ? '' : String(value)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => {
        const v = schema.enum.find((x) => String(x) === e.target.value);
        onChange(e.target.value === '' ? undefined : v);
      }}
    >
      {(!required || value === undefined) && (
        <option value="">{schema.default !== undefined ? `Default (${String(schema.default)})` : 'Choose…'}</option>
      )}
      {schema.enum.map((v) => (
        <option key={String(v)} value={String(v)}>
          {String(v)}
        </option>
      ))}
    </select>
  );
}

/** Props of {@link AlternativesField}. */
export interface AlternativesFieldProps {
  id: string;
  name: string;
  label: string;
  path: Path;
  alternatives: JSONSchema[];
  value: unknown;
  onChange(value: unknown): void;
  required?: boolean;
  error?: string;
  describedBy?: string;
  /** Wraps the kind select in the field's row (label, help, error). */
  row(control: ReactNode): ReactNode;
  /** The builder's `Field`, for the chosen alternative's own value. */
  Field: FieldComponent;
}

/** A `oneOf`/`anyOf` field: a select of its alternatives, then the chosen one's fields. */
export function AlternativesField({
  id,
  name,
  label,
  path,
  alternatives,
  value,
  onChange,
  required,
  error,
  describedBy,
  row,
  Field,
}: AlternativesFieldProps) {
  const chosen = alternativeOf(alternatives, value);
  const alt = alternatives[chosen];
  return (
    <fieldset className={`group${error ? ' has-error' : ''}`}>
      <legend>{label}</legend>
      {row(
        <select
          id={id}
          aria-label={`${label}: kind`}
          value={chosen}
          aria-describedby={describedBy}
          onChange={(e) => {
            const i = Number(e.target.value);
            onChange(i < 0 ? undefined : initialOf(alternatives[i]!));
          }}
        >
          {(!required || chosen < 0) && <option value={-1}>{required ? 'Choose…' : 'None'}</option>}
          {alternatives.map((a, i) => {
            const title = a.title ?? (a.const !== undefined ? String(a.const) : typesOf(a).join(', '));
            const twin = alternatives.some((b, j) => j !== i && b.title === a.title);
            return (
              <option key={i} value={i}>
                {twin ? `${title} (${typesOf(a)[0] === 'array' ? 'list' : 'one text'})` : title}
              </option>
            );
          })}
        </select>,
      )}
      {alt && (alt.properties || typesOf(alt).includes('array') || typesOf(alt).length === 0 || alt['x-editor']) ? (
        <ObjectOrValue
          schema={{ ...alt, title: alt.title ?? label }}
          value={value}
          onChange={onChange}
          path={path}
          name={name}
          Field={Field}
        />
      ) : alt && !alt.const && alt.enum === undefined ? (
        <Field name={name} schema={{ ...alt, title: `${label} (${alt.title ?? 'value'})` }} value={value} onChange={onChange} path={path} />
      ) : null}
    </fieldset>
  );
}
