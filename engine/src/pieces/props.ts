/**
 * A piece property's declaration → the JSON Schema (TypeBox) of the step field that holds it, and
 * the rendered value → what the piece receives (docs/integrations.md "Properties"):
 *
 * | piece property | step field |
 * |---|---|
 * | SHORT_TEXT, LONG_TEXT, DATE_TIME, COLOR | a template (DATE_TIME: ISO 8601 text) |
 * | NUMBER | a number, or a template rendering one |
 * | CHECKBOX | a boolean, or a template rendering `true`/`false` |
 * | STATIC_DROPDOWN / STATIC_MULTI_SELECT_DROPDOWN | one of the choices (`enum`) / a list of them |
 * | DROPDOWN / MULTI_SELECT_DROPDOWN | a value (a list) the builder picks from options the server computes (`x-options`) |
 * | JSON, DYNAMIC | any JSON whose strings are templates |
 * | OBJECT | names to templates |
 * | ARRAY | a list of templates, or of objects of its item properties |
 * | FILE | a template rendering a workspace media id (or its content URL), an http(s) URL (downloaded through the guard) or a data: URL: the piece gets an ApFile of its bytes |
 * | SECRET_TEXT, BASIC_AUTH (old-framework pieces' own credentials) | a template (`{{ secrets.NAME }}`) / username and password templates |
 * | MARKDOWN | not a field: its text becomes the step's help (`description`) |
 * | CUSTOM | not offered (code the Activepieces builder runs in the browser) |
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { permanent } from '../errors';
import { Dict, JsonTemplate, Template } from '../kinds/parts';
import type { PiecePropInfo } from './manifest';

/** Property types that are not step fields. */
const NOT_FIELDS = new Set(['MARKDOWN', 'CUSTOM']);

/** The help of a field: the piece's description, its default and the refreshers it depends on. */
function help(prop: PiecePropInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { title: prop.displayName || 'Value' };
  if (prop.description) out.description = prop.description.slice(0, 2000);
  if (prop.defaultValue !== undefined && prop.defaultValue !== null) out.default = prop.defaultValue;
  return out;
}

/** The choices of a static dropdown as an `enum` when they are all strings or numbers; else undefined. */
function choices(prop: PiecePropInfo): (string | number)[] | undefined {
  const values = (prop.options ?? []).map((o) => o.value);
  if (values.length === 0 || !values.every((v) => typeof v === 'string' || typeof v === 'number')) return undefined;
  return [...new Set(values as (string | number)[])];
}

/** The step field of one property, or undefined for {@link NOT_FIELDS}. */
export function propSchema(prop: PiecePropInfo): TSchema | undefined {
  if (NOT_FIELDS.has(prop.type)) return undefined;
  const h = help(prop);
  switch (prop.type) {
    case 'SHORT_TEXT':
    case 'LONG_TEXT':
    case 'COLOR':
      return Template(h as { title: string });
    case 'FILE':
      return Template({
        ...(h as { title: string }),
        'x-picker': 'media',
        description: `${prop.description ? `${prop.description} ` : ''}A media id of the workspace (Media), e.g. {{ trigger.mediaId }}, a media content URL (what files.write returns), or a file's http(s) or data: URL.`,
      });
    case 'SECRET_TEXT':
      // Old-framework pieces take their token as a property: a workspace secret keeps it masked.
      return Template({
        ...(h as { title: string }),
        description: `${prop.description ? `${prop.description} ` : ''}Use a workspace secret: {{ secrets.NAME }}.`,
      });
    case 'DATE_TIME':
      return Template({ ...(h as { title: string }), examples: ['2026-12-01T09:00:00Z'] });
    case 'NUMBER':
      return Type.Unsafe({ type: ['number', 'string'], 'x-editor': 'template', ...h });
    case 'CHECKBOX':
      return Type.Unsafe({ type: ['boolean', 'string'], ...h });
    case 'STATIC_DROPDOWN': {
      const values = choices(prop);
      return values ? Type.Unsafe({ enum: values, 'x-labels': labels(prop), ...h }) : JsonTemplate(h as { title: string });
    }
    case 'STATIC_MULTI_SELECT_DROPDOWN': {
      const values = choices(prop);
      return Type.Unsafe({ type: 'array', maxItems: 1000, items: values ? { enum: values } : {}, 'x-labels': labels(prop), ...h });
    }
    case 'BASIC_AUTH':
      return Type.Object(
        { username: Template({ title: 'Username' }), password: Template({ title: 'Password', description: 'e.g. {{ secrets.NAME }}' }) },
        { additionalProperties: false, ...h },
      );
    case 'DROPDOWN':
      return Type.Unsafe({ 'x-options': { refreshers: prop.refreshers ?? [] }, ...h });
    case 'MULTI_SELECT_DROPDOWN':
      return Type.Unsafe({ type: 'array', maxItems: 1000, 'x-options': { refreshers: prop.refreshers ?? [] }, ...h });
    case 'OBJECT':
      return Dict(Template({ title: 'Value' }), { maxProperties: 200, ...h });
    case 'ARRAY': {
      const item =
        prop.properties && Object.keys(prop.properties).length > 0 ? propsObject(prop.properties).schema : Template({ title: 'Item' });
      return Type.Array(item, { maxItems: 1000, ...h });
    }
    case 'DYNAMIC':
      return Type.Unsafe({ type: 'object', 'x-editor': 'json', 'x-options': { refreshers: prop.refreshers ?? [], dynamic: true }, ...h });
    default:
      return JsonTemplate(h as { title: string });
  }
}

function labels(prop: PiecePropInfo): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of prop.options ?? []) out[String(o.value)] = o.label;
  return out;
}

/**
 * The object schema of a record of properties (the step's `props`), and the help of its MARKDOWN
 * properties (joined, for the kind's description).
 */
export function propsObject(props: Record<string, PiecePropInfo>): { schema: TSchema; help: string } {
  const fields: Record<string, TSchema> = {};
  const notes: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    if (prop.type === 'MARKDOWN' && prop.markdown) notes.push(prop.markdown.trim());
    const schema = propSchema(prop);
    if (!schema) continue;
    fields[name] = prop.required ? schema : Type.Optional(schema);
  }
  const schema = Type.Object(fields, { additionalProperties: false, title: 'Properties' });
  return { schema, help: notes.join('\n\n').slice(0, 4000) };
}

/**
 * A rendered value as the piece expects it for `prop`: numbers and booleans from their text,
 * empty strings of optional fields dropped (undefined).
 * @throws ActionError INVALID_INPUT for a value that is not a number or a boolean where one is needed.
 */
export function coerceProp(name: string, prop: PiecePropInfo | undefined, value: unknown): unknown {
  if (!prop || value === undefined || value === null) return value;
  if (value === '' && !prop.required) return undefined;
  if (prop.type === 'NUMBER' && typeof value === 'string') {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(n))
      throw permanent('INVALID_INPUT', `props.${name} must be a number, got '${value.slice(0, 100)}'`, { field: `props.${name}` });
    return n;
  }
  if (prop.type === 'CHECKBOX' && typeof value === 'string') {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    throw permanent('INVALID_INPUT', `props.${name} must be true or false, got '${value.slice(0, 100)}'`, { field: `props.${name}` });
  }
  if (prop.type === 'ARRAY' && prop.properties && Array.isArray(value))
    return value.map((item) => (item && typeof item === 'object' ? coerceProps(prop.properties!, item as Record<string, unknown>) : item));
  return value;
}

/** Every value of `values` coerced for its property (see {@link coerceProp}); undefined values dropped. */
export function coerceProps(props: Record<string, PiecePropInfo>, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const v = coerceProp(name, props[name], value);
    if (v !== undefined) out[name] = v;
  }
  return out;
}
