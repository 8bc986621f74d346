import { useQuery } from '@tanstack/react-query';
import { kindOptionsQuery } from '../api';
import { useBuilder } from './context';
import type { SpecialProps } from './SpecialFields';

/**
 * A piece's dynamic dropdown (`x-options`; docs/integrations.md "Dynamic options"): its choices are
 * computed by the piece on the server with the step's connection and the other properties
 * (`POST /api/v1/automations/kinds/{type}/options`); a list field (`type: array`) takes several.
 * Until the step has a connection, or when the piece cannot list them, the piece's placeholder shows.
 */
export function OptionsField({ id, path, schema, value, onChange, describedBy, invalid, siblings }: SpecialProps) {
  const { workspaceId, valueAt } = useBuilder();
  const at = path.lastIndexOf('props');
  const step = (at > 0 ? valueAt?.(path.slice(0, at)) : undefined) as { type?: string; connectionId?: string } | undefined;
  const prop = String(path[path.length - 1]);
  const refreshers = schema['x-options']?.refreshers ?? [];
  const inputs = Object.fromEntries(refreshers.map((r) => [r, siblings[r]]));
  const choices = useQuery(kindOptionsQuery({ workspaceId, type: step?.type, prop, connectionId: step?.connectionId, props: inputs }));
  const options = choices.data?.options ?? [];
  const many = schema.type === 'array';
  const chosen = many ? (Array.isArray(value) ? value : []) : [value];
  const indexOf = (v: unknown) => options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(v));
  const note = !step?.connectionId
    ? 'Choose a connection first.'
    : choices.isError
      ? `The piece could not list them: ${(choices.error as Error).message}`
      : choices.isLoading
        ? 'Loading…'
        : choices.data?.disabled
          ? (choices.data.placeholder ?? 'Nothing to choose from.')
          : undefined;
  return (
    <div className="options-field">
      <select
        id={id}
        multiple={many}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        disabled={options.length === 0}
        value={many ? chosen.map((v) => String(indexOf(v))) : String(indexOf(value))}
        onChange={(e) => {
          const picked = [...e.target.selectedOptions].map((o) => Number(o.value)).filter((i) => i >= 0);
          if (many) onChange(picked.length ? picked.map((i) => options[i]!.value) : undefined);
          else onChange(picked.length ? options[picked[0]!]!.value : undefined);
        }}
      >
        {!many && <option value="-1">—</option>}
        {options.map((o, i) => (
          <option key={i} value={String(i)}>
            {o.label}
          </option>
        ))}
      </select>
      {note && <p className="muted small">{note}</p>}
    </div>
  );
}
