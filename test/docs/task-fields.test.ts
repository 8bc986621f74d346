import fs from 'node:fs';
import path from 'node:path';
import { OptionalKind } from '@sinclair/typebox';
import { BlockSchema, TaskSchema } from '../../server/src/modules/tasks/item';

/**
 * The docs pages that spell out the task item list every property of `TaskSchema` (the one
 * declaration, server/src/modules/tasks/item.ts), and no other: docs/api.md's Items table (Task
 * and Block), docs/automations.md's Actions table ("the task `{...}`") and docs/n8n-package.md's
 * note on chaining ("outputs each created task (...)"). `?` marks an optional property where the
 * page uses it. A field added to the task response fails here until the pages name it.
 */

const docs = path.resolve(__dirname, '../../docs');
const page = (name: string) => fs.readFileSync(path.join(docs, name), 'utf8');

/** The names of a schema's properties, `?` after an optional one, in declaration order. */
function listed(schema: { properties: Record<string, object> }): string[] {
  return Object.entries(schema.properties).map(([name, property]) => (OptionalKind in property ? `${name}?` : name));
}

/** The names inside a `{a, b, c?}` list. */
function names(list: string): string[] {
  return list.split(',').map((n) => n.trim());
}

/** Every match of `pattern` (with one group: the list) in `text`; at least one expected. */
function lists(text: string, pattern: RegExp): string[][] {
  const found = [...text.matchAll(pattern)].map((m) => names(m[1]!));
  expect(found.length).toBeGreaterThan(0);
  return found;
}

test('docs/api.md: the Task and Block items list the TaskSchema and BlockSchema properties', () => {
  const api = page('api.md');
  expect(lists(api, /^\| Task \| `\{([^}]*)\}`/gm)).toEqual([listed(TaskSchema)]);
  expect(lists(api, /^\| Block \(blocks list\) \| `\{([^}]*)\}`/gm)).toEqual([listed(BlockSchema)]);
});

test("docs/automations.md: every 'the task {...}' output lists the TaskSchema properties", () => {
  for (const list of lists(page('automations.md'), /the task `\{([^}]*)\}`/g)) expect(list).toEqual(listed(TaskSchema));
});

test('docs/n8n-package.md: the created task lists the TaskSchema properties', () => {
  const [list] = lists(page('n8n-package.md'), /outputs each created task \(([^)]*)\)/g);
  expect(list!.map((n) => n.replace(/`/g, ''))).toEqual(Object.keys(TaskSchema.properties));
});
