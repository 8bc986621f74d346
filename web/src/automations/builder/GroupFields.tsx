import { Plus, X } from 'lucide-react';
import { fieldId, humanize, useBuilder } from './context';
import type { JSONSchema } from './kinds';
import type { Path } from './model';
import { initialOf, typesOf, type FieldComponent } from './fieldSchema';

/** Props shared by the group widgets: the builder's `Field` for the fields inside them. */
interface GroupProps {
  /** The builder's `Field` (passed in so this module need not import it back). */
  Field: FieldComponent;
}

/** Props of {@link ObjectOrValue}. */
export interface ObjectOrValueProps extends GroupProps {
  schema: JSONSchema;
  value: unknown;
  onChange(v: unknown): void;
  path: Path;
  name: string;
  required?: boolean;
}

/**
 * An object's fields in a group, or key/value rows for a map (`additionalProperties`); a list or
 * untyped alternative goes back to `Field`.
 */
export function ObjectOrValue({ schema, value, onChange, path, name, required, Field }: ObjectOrValueProps) {
  const { problemAt } = useBuilder();
  if (!schema.properties && (typesOf(schema).includes('array') || typesOf(schema).length === 0 || schema['x-editor'])) {
    return <Field name={name} schema={{ ...schema, oneOf: undefined, anyOf: undefined }} value={value} onChange={onChange} path={path} />;
  }
  const object = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  const error = problemAt(path, false);
  if (!schema.properties || Object.keys(schema.properties).length === 0) {
    return <MapField schema={schema} value={object} onChange={onChange} path={path} error={error} required={required} Field={Field} />;
  }
  const set = (k: string, v: unknown) => {
    const next = { ...object };
    if (v === undefined) delete next[k];
    else next[k] = v;
    onChange(Object.keys(next).length === 0 && !required ? undefined : next);
  };
  return (
    <fieldset className={`group${error ? ' has-error' : ''}`}>
      <legend>{schema.title ?? humanize(name)}</legend>
      {schema.description && <p className="help">{schema.description}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {Object.entries(schema.properties).map(([k, p]) =>
        p.const !== undefined ? null : (
          <Field
            key={k}
            name={k}
            schema={p}
            value={object[k]}
            onChange={(v) => set(k, v)}
            path={[...path, k]}
            // An optional group left empty asks for nothing: its fields are required only once it is used.
            required={(required || value !== undefined) && schema.required?.includes(k)}
            siblings={object}
          />
        ),
      )}
    </fieldset>
  );
}

/** Key/value rows for an object of free keys (headers, query, values). */
function MapField({
  schema,
  value,
  onChange,
  path,
  error,
  required,
  Field,
}: GroupProps & {
  schema: JSONSchema;
  value: Record<string, unknown>;
  onChange(v: unknown): void;
  path: Path;
  error?: string;
  required?: boolean;
}) {
  const entries = Object.entries(value);
  const item = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : { 'x-editor': 'json' as const };
  const rename = (from: string, to: string) => onChange(Object.fromEntries(entries.map(([k, v]) => [k === from ? to : k, v])));
  const label = schema.title ?? 'Values';
  return (
    <fieldset className={`group map${error ? ' has-error' : ''}`}>
      <legend>
        {label}
        {required && (
          <span className="required" aria-hidden="true" title="Required">
            *
          </span>
        )}
      </legend>
      {schema.description && <p className="help">{schema.description}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {entries.map(([k, v], i) => (
        <div key={i} className="map-row">
          <input
            type="text"
            aria-label={`${label}: name of entry ${i + 1}`}
            value={k}
            onChange={(e) => rename(k, e.target.value)}
            className="mono"
          />
          <Field
            name={k}
            label={`${label}: value of ${k || `entry ${i + 1}`}`}
            schema={item}
            value={v}
            onChange={(nv) => onChange({ ...value, [k]: nv ?? '' })}
            path={[...path, k]}
          />
          <button
            type="button"
            className="icon-button"
            aria-label={`Remove ${k || `row ${i + 1}`}`}
            onClick={() => {
              const next = Object.fromEntries(entries.filter(([key]) => key !== k));
              onChange(Object.keys(next).length ? next : undefined);
            }}
          >
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      ))}
      <button type="button" className="secondary small" onClick={() => onChange({ ...value, [nextKey(value)]: initialOf(item) ?? '' })}>
        <Plus size={14} aria-hidden="true" /> Add {label.toLowerCase()} entry
      </button>
    </fieldset>
  );
}

function nextKey(value: Record<string, unknown>): string {
  for (let n = 1; ; n++) if (!(`name${n}` in value)) return `name${n}`;
}

/** Props of {@link ListField}. */
export type ListFieldProps = ObjectOrValueProps;

/** Repeatable rows for a list; a list of choices (`items.enum`) is a set of checkboxes. */
export function ListField({ schema, value, onChange, path, name, required, Field }: ListFieldProps) {
  const { problemAt } = useBuilder();
  const list = Array.isArray(value) ? value : [];
  const item = schema.items ?? {};
  const label = schema.title ?? humanize(name);
  const error = problemAt(path, false);
  const id = fieldId(path);
  if (item.enum) {
    const chosen = new Set(value === undefined && Array.isArray(schema.default) ? schema.default : list);
    return (
      <fieldset className={`group checks${error ? ' has-error' : ''}`}>
        <legend>{label}</legend>
        {schema.description && <p className="help">{schema.description}</p>}
        {item.enum.map((v) => (
          <label key={String(v)} className="check">
            <input
              type="checkbox"
              checked={chosen.has(v)}
              onChange={(e) => {
                const next = item.enum!.filter((x) => (x === v ? e.target.checked : chosen.has(x)));
                onChange(next.length ? next : undefined);
              }}
            />{' '}
            {String(v)}
          </label>
        ))}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </fieldset>
    );
  }
  const itemLabel = item.title ?? label.replace(/s$/, '');
  return (
    <fieldset className={`group list${error ? ' has-error' : ''}`} id={id}>
      <legend>
        {label}
        {required && (
          <span className="required" aria-hidden="true" title="Required">
            *
          </span>
        )}
      </legend>
      {schema.description && <p className="help">{schema.description}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {list.map((v, i) => (
        <div key={i} className="list-row">
          <Field
            name={String(i)}
            label={`${itemLabel} ${i + 1}`}
            schema={item}
            value={v}
            path={[...path, i]}
            onChange={(nv) => onChange(list.map((x, j) => (j === i ? nv : x)))}
          />
          <button
            type="button"
            className="icon-button"
            aria-label={`Remove ${itemLabel} ${i + 1}`}
            onClick={() => {
              const next = list.filter((_, j) => j !== i);
              onChange(next.length || required ? next : undefined);
            }}
          >
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      ))}
      <button type="button" className="secondary small" onClick={() => onChange([...list, initialOf(item) ?? ''])}>
        <Plus size={14} aria-hidden="true" /> Add {itemLabel.toLowerCase()}
      </button>
    </fieldset>
  );
}
