import type { ObjectSchema } from './tools';

/**
 * The check of an automation tool's arguments against its input schema (the `mcp` trigger's
 * `inputSchema`: properties of simple types, `required`, `enum`), before any run starts.
 */

/** One property of an input schema. */
interface PropertySchema {
  type?: string;
  enum?: unknown[];
}

/** Whether `value` is of the JSON Schema `type`. */
function ofType(value: unknown, type: string | undefined): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  return true;
}

/** The first way `args` does not fit `schema` (a missing required, an unknown name, a wrong type, a value not in `enum`), or undefined. */
export function inputProblem(schema: ObjectSchema, args: Record<string, unknown>): string | undefined {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  for (const name of schema.required ?? []) if (args[name] === undefined) return `'${name}' is required`;
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) return `'${name}' is not an argument of this tool (it takes: ${Object.keys(properties).join(', ') || 'none'})`;
    if (!ofType(value, property.type)) return `'${name}' must be of type ${property.type}`;
    if (property.enum && !property.enum.includes(value))
      return `'${name}' must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return undefined;
}
