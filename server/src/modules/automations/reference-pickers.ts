import type { KindCatalogue, Picker } from '@taskspace/engine';

/**
 * The references a trigger or step writes out in full, found through its kind's parameter
 * schema: every string value whose schema carries an `x-picker` annotation (`project`, `folder`,
 * `task`, `member`, `agent`, `agentCommand`, `automation`, `secret`, `field`, `connection`, `media`; docs "Automations",
 * "Checked when saved"). A new kind whose parameters carry the annotations is checked with no
 * change here.
 */
export interface PickedReference {
  /** Path of the value from the trigger or step (`['approvers', 1]`). */
  path: (string | number)[];
  picker: Picker;
  /** The value as written (not a template). */
  value: string;
  /** The object holding the value: a task id's `projectId`, a command's `agentId`. */
  holder: Record<string, unknown>;
  /** The whole step or trigger (`task.find`'s `projectId` for its `filter.field.fieldId`). */
  root: Record<string, unknown>;
}

/** True for a value with Liquid in it: it is known only when the step runs. */
export function isTemplate(value: string): boolean {
  return value.includes('{{') || value.includes('{%');
}

type Schema = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The literal references in `value` as described by `schema` (plain JSON Schema draft-07, as the
 * kinds catalogue gives it), in the schema's property order. Step lists (`$ref` to an action)
 * and conditions are not entered: nested steps are walked on their own.
 */
export function pickedReferences(
  schema: Schema,
  value: unknown,
  path: (string | number)[] = [],
  holder: Record<string, unknown> = {},
): PickedReference[] {
  const found: PickedReference[] = [];
  const seen = new Set<string>();
  const visit = (s: Schema, v: unknown, at: (string | number)[], owner: Record<string, unknown>) => {
    const picker = s['x-picker'] as Picker | undefined;
    if (picker !== undefined && typeof v === 'string' && !isTemplate(v)) {
      const key = `${at.join('.')}\n${picker}`;
      if (!seen.has(key)) {
        seen.add(key);
        found.push({ path: at, picker, value: v, holder: owner, root: holder });
      }
    }
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      const alternatives = s[keyword];
      if (Array.isArray(alternatives)) for (const alt of alternatives) if (isRecord(alt)) visit(alt, v, at, owner);
    }
    const properties = s.properties;
    if (isRecord(properties) && isRecord(v)) {
      for (const [name, propertySchema] of Object.entries(properties))
        if (name in v && isRecord(propertySchema)) visit(propertySchema, v[name], [...at, name], v);
    }
    const additional = s.additionalProperties;
    if (isRecord(additional) && isRecord(v)) {
      const named = isRecord(properties) ? properties : {};
      for (const [name, item] of Object.entries(v)) if (!(name in named)) visit(additional, item, [...at, name], v);
    }
    const items = s.items;
    if (isRecord(items) && Array.isArray(v)) v.forEach((item, i) => visit(items, item, [...at, i], owner));
  };
  visit(schema, value, path, holder);
  return found;
}

/** The parameter schemas of a catalogue's kinds, by type. */
export function parameterSchemas(catalogue: KindCatalogue): { triggers: Map<string, Schema>; actions: Map<string, Schema> } {
  return {
    triggers: new Map(catalogue.triggers.map((k) => [k.type, k.parameters])),
    actions: new Map(catalogue.actions.map((k) => [k.type, k.parameters])),
  };
}
