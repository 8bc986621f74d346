import { useState } from 'react';
import { CodeEditor } from './CodeEditor';

/** Props of the code and JSON field controls. */
export interface CodeFieldProps {
  id: string;
  value: unknown;
  onChange(v: unknown): void;
  label: string;
  describedBy?: string;
  invalid?: boolean;
}

/** A JSON value typed as JSON text (kept as typed until it parses; empty text is `undefined`). */
export function JsonValue({ id, value, onChange, label, describedBy, invalid }: CodeFieldProps) {
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
