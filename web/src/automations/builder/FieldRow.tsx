import type { ReactNode } from 'react';

/** Props of {@link FieldRow}. */
export interface FieldRowProps {
  /** The control's DOM id (the label's `for`; `-help` and `-error` ids derive from it). */
  id: string;
  label: string;
  required?: boolean;
  help?: string;
  error?: string;
  children: ReactNode;
  /** The control carries its own label (a checkbox): no label row. */
  inline?: boolean;
}

/** A label, the control, the help text and the field's error, wired together for assistive technology. */
export function FieldRow({ id, label, required, help, error, children, inline }: FieldRowProps) {
  return (
    <div className={`field${inline ? ' inline' : ''}${error ? ' has-error' : ''}`}>
      {!inline && (
        <div className="label-row">
          <label htmlFor={id}>{label}</label>
          {required && (
            <span className="required" aria-hidden="true" title="Required">
              *
            </span>
          )}
        </div>
      )}
      {children}
      {help && (
        <p id={`${id}-help`} className="help">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
