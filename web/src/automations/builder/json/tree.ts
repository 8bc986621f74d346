import { jsonLanguage } from '@codemirror/lang-json';
import type { Segment } from './schema';

/**
 * Paths and places in a JSON text, read from the JSON language's syntax tree (which also makes
 * sense of a text still being typed): the node of a path, the path of a node, and what the
 * cursor is on for completion.
 */

/** A node of the JSON syntax tree. */
export type JsonNode = ReturnType<ReturnType<typeof jsonLanguage.parser.parse>['resolveInner']>;

/** The syntax tree of `text`. */
export function parseTree(text: string) {
  return jsonLanguage.parser.parse(text);
}

const VALUES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

/** The value nodes directly inside `node` (an Array's items, a Property's value, the text's value). */
function values(node: JsonNode): JsonNode[] {
  const out: JsonNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (VALUES.has(c.name)) out.push(c);
  return out;
}

/** The property nodes of an Object node. */
function properties(node: JsonNode): JsonNode[] {
  return node.getChildren('Property');
}

/** The name a PropertyName node (or the property of a Property node) stands for. */
export function nameOf(text: string, node: JsonNode): string {
  const nameNode = node.name === 'PropertyName' ? node : node.getChild('PropertyName');
  if (!nameNode) return '';
  const raw = text.slice(nameNode.from, nameNode.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"|"$/g, '');
  }
}

/** The node of the value at `path` (its property's name instead when `key`), or the deepest node on the way. */
export function nodeAt(text: string, top: JsonNode, path: readonly Segment[], key = false): { node: JsonNode; exact: boolean } {
  const first = values(top)[0];
  if (!first) return { node: top, exact: false };
  let node: JsonNode = first;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (typeof segment === 'number') {
      const item: JsonNode | undefined = node.name === 'Array' ? values(node)[segment] : undefined;
      if (!item) return { node, exact: false };
      node = item;
    } else {
      const property: JsonNode | undefined = node.name === 'Object' ? properties(node).find((p) => nameOf(text, p) === segment) : undefined;
      if (!property) return { node, exact: false };
      if (key && i === path.length - 1) return { node: property.getChild('PropertyName') ?? property, exact: true };
      const value: JsonNode | undefined = values(property)[0];
      if (!value) return { node: property, exact: false };
      node = value;
    }
  }
  return { node, exact: true };
}

/** The path of a value node (walking up through properties and arrays). */
export function pathOf(text: string, node: JsonNode): Segment[] {
  const path: Segment[] = [];
  let n: JsonNode | null = node;
  while (n && n.parent) {
    const parent: JsonNode = n.parent;
    if (parent.name === 'Property') {
      path.unshift(nameOf(text, parent));
      n = parent.parent;
    } else if (parent.name === 'Array') {
      path.unshift(values(parent).findIndex((v) => v.from === n!.from));
      n = parent;
    } else n = parent;
  }
  return path;
}

/** What a value node holds, as far as it can be read (a half-typed text still gives its finished parts). */
export function valueOf(text: string, node: JsonNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.name) {
    case 'Object':
      return Object.fromEntries(properties(node).map((p) => [nameOf(text, p), valueOf(text, values(p)[0])]));
    case 'Array':
      return values(node).map((v) => valueOf(text, v));
    case 'True':
      return true;
    case 'False':
      return false;
    case 'Null':
      return null;
    default:
      try {
        return JSON.parse(text.slice(node.from, node.to));
      } catch {
        return undefined;
      }
  }
}

/** The document's value, as far as it can be read. */
export function documentOf(text: string, top: JsonNode): unknown {
  return valueOf(text, values(top)[0]);
}

/** Where the cursor is for completion: on a property name of the object at `path`, or on the value at `path`. */
export interface CursorPlace {
  kind: 'key' | 'value';
  /** `key`: the object's path; `value`: the value's path. */
  path: Segment[];
  /** The text to replace. */
  from: number;
  to: number;
  /** The names the object has already (`key`). */
  present: string[];
}

/** The completion place at `pos` in `text`, if the cursor is where a property name or a value goes. */
export function placeAt(text: string, top: JsonNode, pos: number): CursorPlace | null {
  const node = top.resolveInner(pos, -1);
  const keyOf = (object: JsonNode): CursorPlace['present'] => properties(object).map((p) => nameOf(text, p));
  if (node.name === 'PropertyName') {
    const object = node.parent?.parent;
    if (!object || object.name !== 'Object') return null;
    return {
      kind: 'key',
      path: pathOf(text, object),
      from: node.from,
      to: node.to,
      present: keyOf(object).filter((k) => k !== nameOf(text, node)),
    };
  }
  if (node.name === 'String' || node.name === 'Number' || node.name === 'True' || node.name === 'False' || node.name === 'Null') {
    if (node.parent?.name !== 'Property' && node.parent?.name !== 'Array') return null;
    return { kind: 'value', path: pathOf(text, node), from: node.from, to: node.to, present: [] };
  }
  if (node.name === 'Property') {
    // After the colon, before any value.
    const colon = node.getChild(':');
    if (!colon || pos < colon.to) return null;
    const object = node.parent;
    return object ? { kind: 'value', path: [...pathOf(text, object), nameOf(text, node)], from: pos, to: pos, present: [] } : null;
  }
  if (node.name === 'Object' || (node.name === '{' && node.parent?.name === 'Object')) {
    const object = node.name === 'Object' ? node : node.parent!;
    return { kind: 'key', path: pathOf(text, object), from: pos, to: pos, present: keyOf(object) };
  }
  return null;
}
