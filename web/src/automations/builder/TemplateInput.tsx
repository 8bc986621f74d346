import { useId, useRef, useState, type RefObject } from 'react';
import { Braces } from 'lucide-react';
import { useBuilder } from './context';
import type { Path } from './model';
import { outputTag, templatePieces } from './templateText';
import { DataPicker } from './DataPicker';
import './template.css';

/** Props of {@link TemplateInput}. */
export interface TemplateInputProps {
  id: string;
  path: Path;
  value: string;
  onChange(value: string): void;
  multiline?: boolean;
  placeholder?: string;
  describedBy?: string;
  invalid?: boolean;
  required?: boolean;
  /** An accessible name when no `<label for>` names the field. */
  ariaLabel?: string;
  /** The field's name for people (the data picker's button says where it inserts). */
  label?: string;
}

/** The field's text drawn behind it with its `{{ … }}` tags highlighted (hidden from assistive technology). */
function Mirror({
  mirrorRef,
  value,
  multiline,
}: {
  mirrorRef: RefObject<HTMLDivElement | null>;
  value: string;
  multiline?: boolean | undefined;
}) {
  return (
    <div
      ref={mirrorRef}
      className={`template-mirror ${multiline ? 'multi' : 'single'}${value.includes('{{') ? ' has-template' : ''}`}
      aria-hidden="true"
    >
      {templatePieces(value).map((piece, i) => (piece.tag ? <mark key={i}>{piece.text}</mark> : <span key={i}>{piece.text}</span>))}
      {multiline && '\u200b'}
    </div>
  );
}

/**
 * A text field whose value is a Liquid template, with the data picker: a button that lists the
 * variables this field can read (the trigger's, earlier steps' outputs, the loop's, the run's) with
 * their paths and sample values from the last run, and inserts `{{ path }}` at the caret.
 */
export function TemplateInput({
  id,
  path,
  value,
  onChange,
  multiline,
  placeholder,
  describedBy,
  invalid,
  required,
  ariaLabel,
  label,
}: TemplateInputProps) {
  const { variablesFor } = useBuilder();
  const [open, setOpen] = useState(false);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  // The highlight behind the text scrolls with it.
  const follow = () => {
    const el = field.current;
    const behind = mirror.current;
    if (el && behind) {
      behind.scrollLeft = el.scrollLeft;
      behind.scrollTop = el.scrollTop;
    }
  };
  const caret = useRef<[number, number] | null>(null);
  const listId = useId();
  const groups = open ? variablesFor(path) : [];
  const remember = () => {
    const el = field.current;
    if (el) caret.current = [el.selectionStart ?? el.value.length, el.selectionEnd ?? el.value.length];
    follow();
  };
  const insert = (p: string, liquidFilter: string) => {
    const [start, end] = caret.current ?? [value.length, value.length];
    const tag = outputTag(p, liquidFilter);
    onChange(value.slice(0, start) + tag + value.slice(end));
    setOpen(false);
    requestAnimationFrame(() => {
      const el = field.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(start + tag.length, start + tag.length);
    });
  };
  const props = {
    id,
    ref: field,
    value,
    placeholder,
    required,
    'aria-label': ariaLabel,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    className: `template-input${value.includes('{{') ? ' has-template' : ''}`,
    spellCheck: false,
    onSelect: remember,
    onKeyUp: remember,
    onBlur: remember,
    onScroll: follow,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <div className="template-field">
      <div className="template-row">
        <div className="template-box">
          <Mirror mirrorRef={mirror} value={value} multiline={multiline} />
          {multiline ? <textarea rows={3} {...props} /> : <input type="text" {...props} />}
        </div>
        <button
          type="button"
          className="icon-button"
          aria-label={`Insert data into ${label ?? ariaLabel ?? 'the field'}`}
          title="Insert data from the trigger or an earlier step"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          onClick={() => {
            if (!caret.current) caret.current = [value.length, value.length];
            setOpen(!open);
          }}
        >
          <Braces size={16} aria-hidden="true" />
        </button>
      </div>
      {open && (
        <DataPicker
          id={listId}
          label={`Insert data into ${label ?? ariaLabel ?? 'the field'}`}
          groups={groups}
          onInsert={insert}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
