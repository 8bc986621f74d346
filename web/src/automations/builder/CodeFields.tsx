import { useId, useMemo, useRef, useState } from 'react';
import { Braces } from 'lucide-react';
import { CodeEditor } from './CodeEditor';
import { useBuilder } from './context';
import { DataPicker } from './DataPicker';
import type { Path } from './model';
import { templateCompletion } from './templateCompletion';
import { outputTag } from './templateText';

/** Props of the code and JSON field controls. */
export interface CodeFieldProps {
  id: string;
  value: unknown;
  onChange(v: unknown): void;
  label: string;
  describedBy?: string;
  invalid?: boolean;
}

/** Props of {@link JsonValue}: where the field is, for the variables its templates can read. */
export interface JsonFieldProps extends CodeFieldProps {
  path: Path;
}

/**
 * The data picker of a JSON editor whose strings are templates: `{{` completion and a toolbar
 * button listing the variables the field at `path` can read; a variable is inserted as
 * `{{ path }}` inside a string, and as a whole `"{{ path }}"` string elsewhere.
 */
function useTemplateHelpers(path: Path, label: string) {
  const { variablesFor } = useBuilder();
  const latest = useRef(() => variablesFor(path));
  latest.current = () => variablesFor(path);
  const extensions = useMemo(() => [templateCompletion(() => latest.current())], []);
  const [open, setOpen] = useState(false);
  const pickerId = useId();
  const name = `Insert data into ${label}`;
  const toolbar = (insert: (make: (at: { inString: boolean }) => string) => void) => (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={name}
        title="Insert data from the trigger or an earlier step (or type {{ in the editor)"
        aria-expanded={open}
        aria-controls={open ? pickerId : undefined}
        onClick={() => setOpen(!open)}
      >
        <Braces size={16} aria-hidden="true" />
      </button>
      {open && (
        <DataPicker
          id={pickerId}
          label={name}
          groups={latest.current()}
          onClose={() => setOpen(false)}
          onInsert={(p, filter) => {
            setOpen(false);
            insert(({ inString }) => (inString ? outputTag(p, filter) : JSON.stringify(outputTag(p, filter))));
          }}
        />
      )}
    </>
  );
  return { extensions, toolbar };
}

/** A JSON value typed as JSON text (kept as typed until it parses; empty text is `undefined`), with the data picker. */
export function JsonValue({ id, value, onChange, label, describedBy, invalid, path }: JsonFieldProps) {
  const helpers = useTemplateHelpers(path, label);
  const [text, setText] = useState(() => (value === undefined || value === '' ? '' : JSON.stringify(value, null, 2)));
  const [bad, setBad] = useState(false);
  return (
    <>
      <CodeEditor
        id={id}
        label={label}
        language="json"
        value={text}
        describedBy={describedBy}
        invalid={invalid || bad}
        className="small-editor"
        extensions={helpers.extensions}
        toolbar={helpers.toolbar}
        onChange={(t) => {
          setText(t);
          if (t.trim() === '') {
            setBad(false);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(t));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad && <p className="field-error">Not valid JSON yet.</p>}
    </>
  );
}

/** Plain code text (`x-editor: code`); empty text is `undefined`. */
export function CodeValue({ id, value, onChange, label, describedBy, invalid }: CodeFieldProps) {
  return (
    <CodeEditor
      id={id}
      label={label}
      language="plain"
      value={typeof value === 'string' ? value : ''}
      onChange={(t) => onChange(t === '' ? undefined : t)}
      describedBy={describedBy}
      invalid={invalid}
    />
  );
}
