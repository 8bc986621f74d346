/**
 * The builder's draft: an automation definition edited immutably, addressed by paths
 * (`['actions', 1, 'then', 0]`), the same paths the service's save-time errors name
 * (`actions[1].then[0].url`, docs "Automations", "Definition").
 */

/** A definition as the builder edits it (docs "Automations", "Definition"). */
export type Definition = {
  name: string;
  description?: string;
  trigger: { type: string; [key: string]: unknown };
  actions: Step[];
};

/** One action of a definition: `type`, optional `id`, and its kind's own fields. */
export type Step = { type: string; id?: string; disabled?: boolean; [key: string]: unknown };

/** A path into the definition: property names and list indexes. */
export type Path = (string | number)[];

/** The value at `path` (undefined when any part is missing). */
export function getAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

/**
 * A copy of `root` with `value` at `path` (objects and lists on the way are copied, missing ones
 * created); `undefined` removes the property (lists keep their length).
 */
export function setAt<T>(root: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const head = path[0]!;
  const rest = path.slice(1);
  const node = (root ?? (typeof head === 'number' ? [] : {})) as Record<string | number, unknown> | unknown[];
  const copy = (Array.isArray(node) ? [...node] : { ...node }) as Record<string | number, unknown>;
  const next = setAt(copy[head], rest, value);
  if (next === undefined && !Array.isArray(copy)) delete copy[head];
  else copy[head] = next;
  return copy as T;
}

/** Parses a service error path (`actions[1].else[0].approvers[0]`, `trigger.cron`) into a {@link Path}. */
export function parseFieldPath(field: string): Path {
  const out: Path = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** Formats a {@link Path} the way the service does (`actions[1].url`). */
export function formatPath(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** True when `path` starts with `prefix`. */
export function startsWith(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
}

/** The step lists a step holds, by the catalogue's `nested` names, plus its error path's steps. */
export function nestedLists(step: Step, nested: readonly string[]): { path: Path; label: string }[] {
  const lists: { path: Path; label: string }[] = [];
  for (const name of nested) {
    if (name === 'branches') {
      const branches = step.branches;
      if (branches && typeof branches === 'object' && !Array.isArray(branches)) {
        for (const b of Object.keys(branches)) lists.push({ path: ['branches', b], label: `Branch ${b}` });
      }
    } else lists.push({ path: [name], label: LIST_LABELS[name] ?? name });
  }
  const onError = step.onError;
  if (onError && typeof onError === 'object' && Array.isArray((onError as { then?: unknown }).then)) {
    lists.push({ path: ['onError', 'then'], label: 'On error' });
  }
  return lists;
}

const LIST_LABELS: Record<string, string> = { then: 'Then', else: 'Else', actions: 'For each item' };

/** Every step in document order with its path (steps inside branches, loops and error paths included). */
export function allSteps(definition: Definition, nestedOf: (type: string) => readonly string[]): { path: Path; step: Step }[] {
  const out: { path: Path; step: Step }[] = [];
  const walk = (list: unknown, at: Path) => {
    if (!Array.isArray(list)) return;
    list.forEach((s: Step, i) => {
      if (!s || typeof s !== 'object') return;
      out.push({ path: [...at, i], step: s });
      for (const l of nestedLists(s, nestedOf(s.type))) walk(getAt(s, l.path), [...at, i, ...l.path]);
    });
  };
  walk(definition.actions, ['actions']);
  return out;
}

/** Last words of kind types that say what is done but not to what (`task.create`, `comment.create`). */
const GENERIC_VERBS = new Set([
  'create',
  'update',
  'delete',
  'get',
  'find',
  'list',
  'complete',
  'uncomplete',
  'move',
  'assign',
  'run',
  'send',
]);

/**
 * A step id not used yet in the definition: the kind's last word and a number (`request2`), or the
 * whole type camel-cased where the last word is a bare verb (`commentCreate1`, `taskCreate1`).
 */
export function freshId(
  definition: Definition,
  type: string,
  nestedOf: (type: string) => readonly string[],
  taken: Set<string> = new Set(),
): string {
  const used = new Set([
    ...taken,
    ...allSteps(definition, nestedOf)
      .map((s) => s.step.id)
      .filter((id): id is string => typeof id === 'string'),
  ]);
  const words = type.split('.');
  // A bare verb names no step ("create2" for a comment): then the whole type, camel-cased (`commentCreate1`).
  const last = words.at(-1) ?? 'step';
  const named =
    words.length > 1 && GENERIC_VERBS.has(last) ? words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('') : last;
  const base = named.replace(/[^A-Za-z0-9_]/g, '') || 'step';
  const stem = /^[A-Za-z]/.test(base) ? base : `step${base}`;
  for (let n = 1; ; n++) if (!used.has(`${stem}${n}`)) return `${stem}${n}`;
}

/** Gives every step without an id a fresh one (the service fills them in too; the builder needs them as names). */
export function withIds(definition: Definition, nestedOf: (type: string) => readonly string[]): Definition {
  let out = definition;
  for (const { path, step } of allSteps(definition, nestedOf)) {
    if (typeof step.id !== 'string' || step.id === '') out = setAt(out, [...path, 'id'], freshId(out, step.type, nestedOf));
  }
  return out;
}

/** Inserts `step` into the list at `listPath` before `index`. */
export function insertStep(definition: Definition, listPath: Path, index: number, step: Step): Definition {
  const list = (getAt(definition, listPath) as Step[] | undefined) ?? [];
  return setAt(definition, listPath, [...list.slice(0, index), step, ...list.slice(index)]);
}

/** Removes the step at `path` (a list path and an index). */
export function removeStep(definition: Definition, path: Path): Definition {
  const listPath = path.slice(0, -1);
  const index = path.at(-1) as number;
  const list = (getAt(definition, listPath) as Step[] | undefined) ?? [];
  return setAt(
    definition,
    listPath,
    list.filter((_, i) => i !== index),
  );
}

/** Moves the step at `from` to position `to` of the same list. */
export function moveStep(definition: Definition, listPath: Path, from: number, to: number): Definition {
  const list = [...((getAt(definition, listPath) as Step[] | undefined) ?? [])];
  if (to < 0 || to >= list.length || from === to) return definition;
  const [moved] = list.splice(from, 1);
  list.splice(to, 0, moved!);
  return setAt(definition, listPath, list);
}

/** A deep copy of a step with fresh ids for it and every step inside it. */
export function copyStep(definition: Definition, step: Step, nestedOf: (type: string) => readonly string[]): Step {
  const copy = structuredClone(step);
  const taken = new Set<string>();
  const renew = (s: Step) => {
    s.id = freshId(definition, s.type, nestedOf, taken);
    taken.add(s.id);
    for (const l of nestedLists(s, nestedOf(s.type))) {
      const list = getAt(s, l.path);
      if (Array.isArray(list)) list.forEach((c: Step) => renew(c));
    }
  };
  renew(copy);
  return copy;
}
