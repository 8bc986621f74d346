import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { Annotation, Compartment, EditorState, type Extension } from '@codemirror/state';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { automationSchemaQuery, kindsQuery } from '../api';
import { asCatalogue } from './kinds';
import { automationJson, type LineProblem } from './json/automationJson';
import type { Schema } from './json/schema';
import { insideJsonString } from './templateCompletion';

/** Monospace text, the app's colours (custom properties reach into the shadow root), a focus ring. */
const THEME = EditorView.theme({
  '&': {
    fontSize: '0.85rem',
    backgroundColor: 'var(--bg, #fff)',
    color: 'var(--fg, #1c1d21)',
    border: '1px solid var(--line, #e3e4e8)',
    borderRadius: '0.4rem',
  },
  '&.cm-focused': { outline: '2px solid var(--accent, #4f46e5)' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    maxHeight: 'var(--editor-max-height, 70vh)',
    minHeight: 'var(--editor-min-height, 3rem)',
  },
  '.cm-gutters': {
    backgroundColor: 'var(--panel, #f7f7f9)',
    color: 'var(--muted, #6b6f76)',
    borderRight: '1px solid var(--line, #e3e4e8)',
  },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent, #4f46e5) 6%, transparent)' },
});

/** Marks a change that follows the `value` prop: not the person's edit, so not reported back through `onChange`. */
const FROM_VALUE = Annotation.define<boolean>();

/** Props of {@link CodeEditor}. */
export interface CodeEditorProps {
  value: string;
  onChange(text: string): void;
  /** `json`: JSON highlighting and parse errors underlined; `plain`: plain monospace text. */
  language: 'json' | 'plain';
  /** The editor's accessible name. */
  label: string;
  id?: string;
  /** Extra editor extensions (completion, …). */
  extensions?: Extension[];
  describedBy?: string;
  invalid?: boolean;
  className?: string;
  /**
   * `automation`: the text is an automation definition — the service's schema
   * (`GET /api/v1/automations/schema`) is checked as you type, problems underlined and listed
   * under the editor, and field names and kinds are completed.
   */
  schema?: 'automation';
  /**
   * Controls shown above the editor (the data picker's button), given a function that inserts
   * text at the cursor: `make` is told whether the cursor is inside a JSON string.
   */
  toolbar?: (insert: (make: (at: { inString: boolean }) => string) => void) => ReactNode;
}

/** The service's automation schema and kinds catalogue, when `enabled` (both kept for the session). */
function useAutomationSchema(enabled: boolean) {
  // The API document declares the published schema as a free-form object (a JSON Schema is not an OpenAPI type): read as one.
  const schema = useQuery({ ...automationSchemaQuery(enabled), select: (published) => published as Schema });
  // The same query as the builder's `useKinds` (one request for both).
  const catalogue = useQuery({ ...kindsQuery(), enabled, select: asCatalogue });
  return enabled ? { schema: schema.data, catalogue: catalogue.data } : {};
}

/** The editor's content attributes: a named multi-line textbox, described by `describedBy` and the problems list. */
function contentAttributes(
  label: string,
  id: string | undefined,
  describedBy: string | undefined,
  invalid: boolean | undefined,
  problemsId: string | undefined,
) {
  // tabindex 0: the scrolling box holds a focusable element as far as assistive checks can tell.
  const a: Record<string, string> = { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', tabindex: '0' };
  if (id) a.id = id;
  const described = [describedBy, problemsId].filter(Boolean).join(' ');
  if (described) a['aria-describedby'] = described;
  if (invalid) a['aria-invalid'] = 'true';
  return a;
}

/**
 * A CodeMirror 6 editor (monospace, line numbers, bracket matching, undo history), in a shadow
 * root so its styles go in through a constructed style sheet, which the app's CSP allows; nothing
 * is compiled at run time.
 * The text follows `value` when it changes from outside.
 */
export function CodeEditor({
  value,
  onChange,
  language,
  label,
  id,
  extensions = [],
  describedBy,
  invalid,
  className,
  schema,
  toolbar,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const change = useRef(onChange);
  change.current = onChange;
  // Parts that change while the editor lives go into compartments (remaking it would lose the cursor).
  const slots = useRef({ attributes: new Compartment(), schema: new Compartment() });
  const [problems, setProblems] = useState<LineProblem[]>([]);
  const problemsId = id ? `${id}-problems` : undefined;
  const loaded = useAutomationSchema(schema === 'automation');
  const schemaExtension = useMemo<Extension>(
    () => (loaded.schema ? automationJson({ schema: loaded.schema, catalogue: loaded.catalogue, onProblems: setProblems }) : []),
    [loaded.schema, loaded.catalogue],
  );
  const attributes = useMemo(
    () => contentAttributes(label, id, describedBy, invalid || problems.length > 0, problems.length > 0 ? problemsId : undefined),
    [label, id, describedBy, invalid, problems.length, problemsId],
  );
  const current = useRef({ attributes, schemaExtension });
  current.current = { attributes, schemaExtension };

  useEffect(() => {
    // Inside a shadow root CodeMirror's styles go into a constructed style sheet; on the document
    // itself they would go into a <style> element, which the CSP (rightly) refuses.
    const shadow = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const v = new EditorView({
      parent: shadow,
      root: shadow,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          THEME,
          EditorView.lineWrapping,
          slots.current.attributes.of(EditorView.contentAttributes.of(current.current.attributes)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(FROM_VALUE))) change.current(u.state.doc.toString());
          }),
          ...(language === 'json' ? [json(), linter(jsonParseLinter()), lintGutter()] : []),
          ...extensions,
          slots.current.schema.of(current.current.schemaExtension),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // The editor is made once per language; value, attribute and schema changes are applied below.
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({ effects: slots.current.attributes.reconfigure(EditorView.contentAttributes.of(attributes)) });
  }, [attributes]);

  useEffect(() => {
    view.current?.dispatch({ effects: slots.current.schema.reconfigure(schemaExtension) });
  }, [schemaExtension]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: FROM_VALUE.of(true) });
  }, [value]);

  const insert = (make: (at: { inString: boolean }) => string) => insertAtCursor(view.current, language, make);
  const editor = <div ref={host} className={`code-editor${className ? ` ${className}` : ''}`} />;
  const box = toolbar ? (
    <div className="code-editor-frame">
      <div className="code-editor-toolbar">{toolbar(insert)}</div>
      {editor}
    </div>
  ) : (
    editor
  );
  if (!schema) return box;
  return (
    <>
      {box}
      <ProblemList id={problemsId} problems={problems} />
    </>
  );
}

/** Replaces the selection with `make`'s text (told whether the cursor is inside a JSON string), the cursor after it. */
function insertAtCursor(v: EditorView | null, language: CodeEditorProps['language'], make: (at: { inString: boolean }) => string) {
  if (!v) return;
  const { from, to } = v.state.selection.main;
  const text = make({ inString: language === 'json' && insideJsonString(v.state.doc.toString(), from) });
  v.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
  v.focus();
}

/** The schema's problems under the editor, by line (announced as they change). */
function ProblemList({ id, problems }: { id: string | undefined; problems: LineProblem[] }) {
  return (
    <ul id={id} className="editor-problems" aria-label="Problems in the JSON" aria-live="polite">
      {problems.map((p, i) => (
        <li key={i} className="error small">
          Line {p.line}: {p.message}
        </li>
      ))}
    </ul>
  );
}
