import { useMemo, useState } from 'react';
import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import { useBuilder } from './context';
import type { JSONSchema } from './kinds';
import type { Path } from './model';
import { usePickerOptions } from './pickers';
import { TemplateInput } from './TemplateInput';
import { timeZones } from '../../tasks/TimeZonePicker';

/** Props every special field gets. */
export interface SpecialProps {
  id: string;
  path: Path;
  schema: JSONSchema;
  value: unknown;
  onChange(value: unknown): void;
  describedBy?: string;
  invalid?: boolean;
  /** The object holding this field (a picker reads its sibling `projectId`, `agentId`, `timezone`). */
  siblings: Record<string, unknown>;
}

/** The readable meaning of a cron expression and its next five times in `timezone`, or the reason it is not valid. */
export function describeCron(expression: string, timezone: string | undefined): { text?: string; next?: string[]; error?: string } {
  if (expression.trim() === '') return {};
  try {
    const next = new Cron(expression, { timezone: timezone || 'UTC', paused: true }).nextRuns(5);
    const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone || 'UTC' });
    let text: string | undefined;
    try {
      text = cronstrue.toString(expression, { use24HourTimeFormat: true });
    } catch {
      text = undefined;
    }
    return { ...(text ? { text } : {}), next: next.map((d) => format.format(d)) };
  } catch (e) {
    return { error: `Not a valid cron expression: ${(e as Error).message.replace(/^CronPattern: /, '')}` };
  }
}

/** A cron expression with its meaning and the next five times in the trigger's time zone. */
export function CronField({ id, value, onChange, describedBy, invalid, siblings }: SpecialProps) {
  const text = typeof value === 'string' ? value : '';
  const timezone = typeof siblings.timezone === 'string' ? siblings.timezone : undefined;
  const info = useMemo(() => describeCron(text, timezone), [text, timezone]);
  return (
    <div className="cron-field">
      <input
        id={id}
        type="text"
        className="mono"
        value={text}
        placeholder="0 9 * * 1-5"
        spellCheck={false}
        aria-describedby={`${id}-preview${describedBy ? ` ${describedBy}` : ''}`}
        aria-invalid={invalid || info.error !== undefined || undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
      <div id={`${id}-preview`} className="cron-preview" aria-live="polite">
        {/* The row shows the same message once the card is edited: say it once. */}
        {info.error && !invalid && <p className="field-error">{info.error}</p>}
        {info.text && <p>{info.text}</p>}
        {info.next && (
          <>
            <p className="muted small">Next times ({timezone || 'UTC'}):</p>
            <ol className="next-times">
              {info.next.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ol>
          </>
        )}
      </div>
    </div>
  );
}

/** A time zone: type to search the IANA names (a list the browser filters as you type). */
export function TimezoneField({ id, value, onChange, describedBy, invalid }: SpecialProps) {
  const zones = useMemo(() => timeZones('UTC', 'UTC'), []);
  return (
    <>
      <input
        id={id}
        type="text"
        list={`${id}-zones`}
        value={typeof value === 'string' ? value : ''}
        placeholder="UTC"
        autoComplete="off"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
      <datalist id={`${id}-zones`}>
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}

const OTHER = '\u0000other';

/**
 * A choice of one of the service's objects (`x-picker`): a list read through the API, and
 * "Another value or template…" for an id typed by hand or a `{{ … }}` template.
 */
export function PickerField({ id, path, schema, value, onChange, describedBy, invalid, siblings }: SpecialProps) {
  const { workspaceId } = useBuilder();
  const options = usePickerOptions(schema['x-picker'], workspaceId, siblings, schema['x-piece']);
  const text = typeof value === 'string' ? value : '';
  const known = options?.some((o) => o.value === text) ?? false;
  const [custom, setCustom] = useState(text !== '' && options !== undefined && !known);
  const showText = custom || (text !== '' && options !== undefined && !known);
  if (options === null) {
    return (
      <TemplateInput
        id={id}
        label={schema.title}
        path={path}
        value={text}
        onChange={(v) => onChange(v === '' ? undefined : v)}
        describedBy={describedBy}
        invalid={invalid}
        placeholder={schema.examples?.[0] !== undefined ? String(schema.examples[0]) : 'An id or {{ template }}'}
      />
    );
  }
  return (
    <div className="picker-field">
      <select
        id={id}
        value={showText ? OTHER : text}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          if (e.target.value === OTHER) {
            setCustom(true);
            return;
          }
          setCustom(false);
          onChange(e.target.value === '' ? undefined : e.target.value);
        }}
      >
        <option value="">{options === undefined ? 'Loading…' : `Choose…`}</option>
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        <option value={OTHER}>Another value or template…</option>
      </select>
      {showText && (
        <TemplateInput
          id={`${id}-text`}
          label={schema.title}
          path={path}
          value={text}
          onChange={(v) => onChange(v === '' ? undefined : v)}
          placeholder={schema.examples?.[0] !== undefined ? String(schema.examples[0]) : 'An id or {{ template }}'}
          describedBy={describedBy}
          invalid={invalid}
          ariaLabel={`${schema.title ?? 'Value'} (value or template)`}
        />
      )}
    </div>
  );
}
