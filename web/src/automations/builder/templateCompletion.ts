import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { EditorState, type Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { VariableGroup } from './context';
import { TEMPLATE_FILTERS } from './templateText';

function preview(sample: unknown): string | undefined {
  if (sample === undefined) return undefined;
  const text = typeof sample === 'string' ? sample : JSON.stringify(sample);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** Replaces `from`–`to` (and a `}}` right after it, as bracket closing leaves one) with `text`, the cursor after it. */
function replaceTag(view: EditorView, from: number, to: number, text: string): void {
  const rest = view.state.sliceDoc(to, Math.min(view.state.doc.length, to + 4));
  const close = /^\s*\}\}/.exec(rest);
  const end = close ? to + close[0].length : to;
  view.dispatch({ changes: { from, to: end, insert: text }, selection: { anchor: from + text.length } });
}

/**
 * `{{` completion in a code or JSON editor (docs "Web app", "Data picker"): after `{{` it lists the
 * variables `groups()` gives (the trigger's, earlier steps' outputs, the loop's, the run's) with
 * sample values, and inserts `{{ path }}`; after `{{ path |` it lists the Liquid filters the data
 * picker offers. `groups` is read at each completion, so it may follow the draft.
 */
export function templateCompletion(groups: () => VariableGroup[]): Extension {
  const source = (context: CompletionContext): CompletionResult | null => {
    const filter = context.matchBefore(/\{\{[^{}|]*\|\s*[\w:" %-]*$/);
    if (filter) {
      const bar = filter.text.lastIndexOf('|');
      const from = filter.from + bar + 1 + (/^\s*/.exec(filter.text.slice(bar + 1))?.[0].length ?? 0);
      return {
        from,
        options: TEMPLATE_FILTERS.filter((f) => f.filter !== '').map((f) => ({ label: f.filter, detail: f.label, type: 'function' })),
      };
    }
    const tag = context.matchBefore(/\{\{\s*[\w.[\]-]*$/);
    if (!tag) return null;
    const from = tag.from + (/^\{\{\s*/.exec(tag.text)?.[0].length ?? 2);
    const options: Completion[] = groups().flatMap((g) =>
      g.variables.map((v) => ({
        label: v.path,
        detail: preview(v.sample),
        section: g.label,
        type: 'variable',
        apply: (view: EditorView, _c: Completion, _from: number, to: number) => replaceTag(view, tag.from, to, `{{ ${v.path} }}`),
      })),
    );
    return { from, options, validFor: /^[\w.[\]-]*$/ };
  };
  return EditorState.languageData.of(() => [{ autocomplete: source }]);
}

/** True when `position` of `text` (JSON) is inside a string: an odd number of unescaped quotes before it. */
export function insideJsonString(text: string, position: number): boolean {
  let inside = false;
  for (let i = 0; i < position; i++) {
    if (text[i] === '\\' && inside) i++;
    else if (text[i] === '"') inside = !inside;
  }
  return inside;
}
