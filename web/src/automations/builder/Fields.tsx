import type { ReactNode } from 'react';
import { AlternativesField, EnumControl } from './ChoiceFields';
import { CodeValue, JsonValue } from './CodeFields';
import { ConditionsField } from './ConditionsField';
import { ConnectionField } from './ConnectionField';
import { fieldId, humanize, useBuilder } from './context';
import { FieldRow } from './FieldRow';
import { typesOf, type FieldProps } from './fieldSchema';
import { ListField, ObjectOrValue } from './GroupFields';
import { CronField, PickerField, TimezoneField, type SpecialProps } from './SpecialFields';
import { OptionsField } from './OptionsField';
import { CheckboxControl, NumberControl, TemplateControl, TemplateTextControl, TextControl, type ScalarControlProps } from './TextFields';

export { initialOf, type FieldProps } from './fieldSchema';

/**
 * One field of a kind's parameters, chosen from its JSON Schema and annotations: a template text
 * with the data picker, a select for `enum` and for `oneOf` alternatives (then the chosen one's
 * fields), a picker of the service's objects, a cron or time zone field, a code or JSON editor, a
 * group for an object, repeatable rows for a list, key/value rows for a map.
 */
export function Field({ name, schema, value, onChange, path, required, siblings = {}, label: forcedLabel }: FieldProps) {
  const { problemAt } = useBuilder();
  const id = fieldId(path);
  const label = forcedLabel ?? schema.title ?? humanize(name);
  const editor = schema['x-editor'];
  if (editor === 'steps') return null;
  const alternatives = schema.properties ? undefined : (schema.oneOf ?? schema.anyOf);
  const isObject = (typesOf(schema).includes('object') || schema.properties !== undefined) && !alternatives && editor !== 'json';
  const isArray = typesOf(schema)[0] === 'array' && editor !== 'json';
  const leaf = !isObject && !isArray && !alternatives;
  const error = problemAt(path, leaf);
  const invalid = error !== undefined;
  const describedBy = [schema.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const special: SpecialProps = { id, path, schema, value, onChange, describedBy, invalid, siblings };
  const scalar: ScalarControlProps = { id, name, label, path, schema, value, onChange, describedBy, invalid };
  const row = (control: ReactNode, inline = false) => (
    <FieldRow id={id} label={label} required={required} help={schema.description} error={error} inline={inline}>
      {control}
    </FieldRow>
  );

  if (schema['x-picker'] === 'connection') return row(<ConnectionField {...special} />);
  if (schema['x-picker']) return row(<PickerField {...special} />);
  if (schema['x-options'] && !schema['x-options'].dynamic) return row(<OptionsField {...special} />);
  if (editor === 'conditions') return <ConditionsField {...special} label={label} />;
  if (editor === 'cron') return row(<CronField {...special} />);
  if (editor === 'timezone') return row(<TimezoneField {...special} />);
  if (editor === 'code')
    return row(<CodeValue id={id} label={label} value={value} onChange={onChange} describedBy={describedBy} invalid={invalid} />);
  if (editor === 'json' || (typesOf(schema).length === 0 && !alternatives && !schema.enum && !schema.properties))
    return row(
      <JsonValue id={id} label={label} path={path} value={value} onChange={onChange} describedBy={describedBy} invalid={invalid} />,
    );

  if (alternatives && editor === 'template' && (typeof value === 'string' || value === undefined))
    return row(<TemplateTextControl {...scalar} />);
  if (alternatives)
    return (
      <AlternativesField
        id={id}
        name={name}
        label={label}
        path={path}
        alternatives={alternatives}
        value={value}
        onChange={onChange}
        required={required}
        error={error}
        describedBy={describedBy}
        row={row}
        Field={Field}
      />
    );
  if (schema.enum)
    return row(
      <EnumControl
        id={id}
        schema={{ ...schema, enum: schema.enum }}
        value={value}
        onChange={onChange}
        required={required}
        describedBy={describedBy}
        invalid={invalid}
      />,
    );
  if (isObject)
    return (
      <ObjectOrValue
        schema={{ ...schema, title: label }}
        value={value}
        onChange={onChange}
        path={path}
        name={name}
        required={required}
        Field={Field}
      />
    );
  if (isArray)
    return (
      <ListField
        schema={{ ...schema, title: label }}
        value={value}
        onChange={onChange}
        path={path}
        name={name}
        required={required}
        Field={Field}
      />
    );

  const t = typesOf(schema);
  if (t.includes('boolean') && editor !== 'template' && !t.includes('string')) return row(<CheckboxControl {...scalar} />, true);
  if ((t.includes('number') || t.includes('integer')) && !t.includes('string')) return row(<NumberControl {...scalar} />);
  if (editor === 'template' || t.includes('number')) return row(<TemplateControl {...scalar} />);
  return row(<TextControl {...scalar} />);
}
