import { OptionalKind, Type, type Static, type TObject } from '@sinclair/typebox';

/**
 * The task item, declared once (spec section 2): its TypeBox schema (which the routes answer
 * with, the OpenAPI document and the web's types come from), its type, the columns it is read
 * from and the one function that turns such a row into the item. A leaf module (it imports only
 * TypeBox) so that the service container type (`services.ts`) can name the types without an
 * import loop.
 *
 * Adding a field to the task response: a property here, its column in {@link TASK_ITEM_COLUMNS}
 * (the compiler asks for it) and the SQL column (a migration). The engine declares what its
 * task steps return on its own side; test/automations/task-output-contract.test.ts fails until
 * it agrees.
 */

/** A task item: `parentId` only on subtasks. */
export const TaskSchema = Type.Object(
  {
    id: Type.String({ description: 'uuid' }),
    text: Type.String(),
    completed: Type.Boolean(),
    parentId: Type.Optional(Type.String({ description: 'uuid of the parent task; absent on top-level tasks (blocks)' })),
  },
  { additionalProperties: false },
);

/** A task as the API returns it (spec section 2). `parentId` is present only on subtasks. */
export type Task = Static<typeof TaskSchema>;

/** A block item: a top-level task, without `parentId`. */
export const BlockSchema = Type.Omit(TaskSchema, ['parentId'], { additionalProperties: false });

/** A top-level task as the blocks list returns it (spec section 2): no `parentId`. */
export type Block = Static<typeof BlockSchema>;

/** The row an item of type `T` is read from: booleans stored as 0 or 1, an optional property NULL when absent. */
export type ItemRow<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends boolean ? number : undefined extends T[K] ? NonNullable<T[K]> | null : T[K];
};

/** The column of `tasks` each {@link Task} property is read from. */
const TASK_ITEM_COLUMNS = {
  id: 'id',
  text: 'text',
  completed: 'completed',
  parentId: 'parent_id',
} as const satisfies Record<keyof Task, string>;

/** A row selected with {@link TASK_COLUMNS}: the item's columns and the task's `path`. */
export type TaskRow = ItemRow<Task> & {
  /** The task's position in document order (see modules/tasks/tree.ts). */
  path: string;
};

/** Every column of a {@link TaskRow}. */
const TASK_ROW_COLUMNS: Record<keyof TaskRow, string> = { ...TASK_ITEM_COLUMNS, path: 'path' };

/**
 * The select list of a {@link TaskRow}: each column of `tasks` (qualified by `table` when given)
 * named as its property, each name preceded by `prefix` when given (`taskColumns('t', 'task.')`:
 * `t.id AS "task.id", ...`, for a join; read back with {@link taskRowOf}).
 */
export function taskColumns(table?: string, prefix = ''): string {
  return Object.entries(TASK_ROW_COLUMNS)
    .map(([name, column]) => `${table === undefined ? column : `${table}.${column}`} AS "${prefix}${name}"`)
    .join(', ');
}

/** The columns every Task is built from; select them with `SELECT ${TASK_COLUMNS} FROM tasks`. */
export const TASK_COLUMNS = taskColumns();

/**
 * The {@link TaskRow} inside a joined row selected with `taskColumns(table, prefix)`, or
 * undefined when the join found no task (its id is NULL).
 */
export function taskRowOf(row: Record<string, unknown>, prefix: string): TaskRow | undefined {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return undefined;
  return Object.fromEntries(Object.keys(TASK_ROW_COLUMNS).map((name) => [name, row[`${prefix}${name}`]])) as TaskRow;
}

/**
 * The function turning a row into an item of `schema`, property by property in the schema's
 * order: a boolean property from 0/1, an optional property left out when NULL, any other copied.
 */
function rowMapper<S extends TObject>(schema: S): (row: ItemRow<Static<S>>) => Static<S> {
  const properties = Object.entries(schema.properties).map(([name, property]) => ({
    name,
    boolean: property.type === 'boolean',
    optional: OptionalKind in property,
  }));
  return (row) => {
    const item: Record<string, unknown> = {};
    const values = row as Record<string, unknown>;
    for (const { name, boolean, optional } of properties) {
      const value = values[name];
      if (optional && value === null) continue;
      item[name] = boolean ? value === 1 : value;
    }
    return item as Static<S>;
  };
}

/** The API item for a task row (columns beyond the item's, like `path`, are left out). */
export const toTask: (row: TaskRow) => Task = rowMapper(TaskSchema);

/** The blocks list's item for a top-level task's row. */
export const toBlock: (row: ItemRow<Block>) => Block = rowMapper(BlockSchema);
