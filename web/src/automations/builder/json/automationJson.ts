import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { jsonLanguage } from '@codemirror/lang-json';
import { linter, type Diagnostic } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { Catalogue } from '../kinds';
import { check, propertiesAt, valuesAt, type Schema, type SchemaProblem } from './schema';
import { documentOf, nodeAt, parseTree, placeAt, type JsonNode } from './tree';

/** One problem of the JSON text, for the list under the editor: its line and message. */
export interface LineProblem {
  line: number;
  message: string;
}

/** What {@link automationJson} needs: the service's schema, the kinds catalogue (titles and summaries), and where problems go. */
export interface AutomationJsonOptions {
  schema: Schema;
  catalogue?: Catalogue;
  /** Called after each check with the problems found (empty when the text is valid or does not parse). */
  onProblems?(problems: LineProblem[]): void;
}

/** `a.b[0].c` for a path (the form the service's errors use). */
export function formatSegments(path: readonly (string | number)[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** The text range to underline for a problem: the property name, the value, or (missing fields) the object's name or brace. */
function rangeOf(text: string, top: JsonNode, problem: SchemaProblem): { from: number; to: number } {
  const { node, exact } = nodeAt(text, top, problem.path, problem.key);
  if (!exact) return { from: node.from, to: Math.min(node.to, node.from + 1) };
  if (node.name === 'Object' || node.name === 'Array') {
    // A missing field or a size limit: underline the property's name (or the opening bracket), not the whole block.
    const name = node.parent?.name === 'Property' ? node.parent.getChild('PropertyName') : null;
    return name ? { from: name.from, to: name.to } : { from: node.from, to: node.from + 1 };
  }
  return { from: node.from, to: node.to };
}

/** The schema check of the JSON text, as diagnostics at the line (nothing while it does not parse: the parse linter says why). */
function schemaDiagnostics(view: EditorView, options: AutomationJsonOptions): Diagnostic[] {
  const text = view.state.doc.toString();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    options.onProblems?.([]);
    return [];
  }
  const problems: SchemaProblem[] = [];
  check(options.schema, value, [], options.schema, problems);
  const top = parseTree(text).topNode;
  const diagnostics = problems.map((p) => {
    const { from, to } = rangeOf(text, top, p);
    const where = formatSegments(p.path);
    return { from, to, severity: 'error' as const, source: 'schema', message: where ? `${where}: ${p.message}` : p.message };
  });
  options.onProblems?.(diagnostics.map((d) => ({ line: view.state.doc.lineAt(d.from).number, message: d.message })));
  return diagnostics;
}

/** The kind titles and summaries by type (triggers and actions). */
function kindInfo(catalogue: Catalogue | undefined): Map<string, { title: string; summary: string }> {
  return new Map(
    [...(catalogue?.triggers ?? []), ...(catalogue?.actions ?? [])].map((k) => [k.type, { title: k.title, summary: k.summary }]),
  );
}

/** Completion of property names (with their titles and help) and of values the schema names (kinds with their titles). */
function completions(context: CompletionContext, options: AutomationJsonOptions): CompletionResult | null {
  const text = context.state.doc.toString();
  const top = parseTree(text).topNode;
  const place = placeAt(text, top, context.pos);
  if (!place) return null;
  if (!context.explicit && place.from === place.to && !/[{,:[\s]$/.test(text.slice(0, context.pos))) return null;
  const document = documentOf(text, top);
  if (place.kind === 'key') {
    const quoted = place.from !== place.to;
    const fields = [...propertiesAt(options.schema, document, place.path)].filter(([name]) => !place.present.includes(name));
    if (fields.length === 0) return null;
    const items: Completion[] = fields.map(([name, s], i) => ({
      label: JSON.stringify(name),
      displayLabel: name,
      apply: quoted ? JSON.stringify(name) : `${JSON.stringify(name)}: `,
      type: 'property',
      detail: s.title,
      info: s.description,
      // Declaration order: the kind's own fields come in the order its declaration gives them.
      boost: Math.max(-99, -i),
    }));
    return { from: place.from, to: place.to, options: items, validFor: /^"?[\w.$-]*"?$/ };
  }
  const values = valuesAt(options.schema, document, place.path);
  if (values.length === 0) return null;
  const kinds = place.path.at(-1) === 'type' ? kindInfo(options.catalogue) : undefined;
  return {
    from: place.from,
    to: place.to,
    options: values.map((v) => {
      const info = typeof v === 'string' ? kinds?.get(v) : undefined;
      return {
        label: JSON.stringify(v),
        displayLabel: typeof v === 'string' ? v : JSON.stringify(v),
        type: kinds ? 'class' : 'enum',
        ...(info ? { detail: info.title, info: info.summary } : {}),
      };
    }),
    validFor: /^"?[\w.$-]*"?$/,
  };
}

/**
 * The JSON view's editor support for an automation definition (docs "Web app", "JSON view"):
 * the service's schema checked as you type, each problem underlined at its place with its
 * message (the service checks again when saving), and completion of field names and of values
 * the schema lists, kinds with their titles and summaries. Interpreted, not compiled: CSP-safe.
 */
export function automationJson(options: AutomationJsonOptions): Extension {
  return [
    linter((view) => schemaDiagnostics(view, options), { delay: 300 }),
    jsonLanguage.data.of({ autocomplete: (c: CompletionContext) => completions(c, options) }),
  ];
}
