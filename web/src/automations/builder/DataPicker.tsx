import { useState } from 'react';
import type { VariableGroup } from './context';
import { TEMPLATE_FILTERS } from './templateText';

/** Props of {@link DataPicker}. */
export interface DataPickerProps {
  /** The DOM id (the opening button's `aria-controls`). */
  id: string;
  /** The dialog's name: "Insert data into Body". */
  label: string;
  groups: VariableGroup[];
  /** Inserts `path` with the chosen Liquid filter (`''` for none). */
  onInsert(path: string, filter: string): void;
  onClose(): void;
}

function preview(sample: unknown): string {
  if (sample === undefined) return '';
  const text = typeof sample === 'string' ? sample : JSON.stringify(sample);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * The data picker's list (docs "Web app", "Data picker"): the variables a field can read (the
 * trigger's, earlier steps' outputs, the loop's, the run's) with sample values, a search and a
 * filter to insert them with. Shared by the template text fields and the code and JSON editors.
 */
export function DataPicker({ id, label, groups, onInsert, onClose }: DataPickerProps) {
  const [filter, setFilter] = useState('');
  const [liquidFilter, setLiquidFilter] = useState('');
  const shown = groups
    .map((g) => ({ ...g, variables: g.variables.filter((v) => v.path.toLowerCase().includes(filter.toLowerCase())) }))
    .filter((g) => g.variables.length > 0);
  return (
    <div className="data-picker" id={id} role="dialog" aria-label={label} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <input
        type="search"
        aria-label="Search data"
        placeholder="Search data…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        autoFocus
      />
      <label className="filter-choice">
        <span>Insert it</span>
        <select value={liquidFilter} onChange={(e) => setLiquidFilter(e.target.value)}>
          {TEMPLATE_FILTERS.map((f) => (
            <option key={f.filter} value={f.filter}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      {shown.length === 0 && <p className="muted small">No data before this step yet.</p>}
      {shown.map((g) => (
        <div key={g.label} role="group" aria-label={g.label}>
          <h4>{g.label}</h4>
          <ul>
            {g.variables.map((v) => (
              <li key={v.path}>
                <button type="button" className="data-item" onClick={() => onInsert(v.path, liquidFilter)}>
                  <code>{v.path}</code>
                  {v.sample !== undefined && <span className="sample">{preview(v.sample)}</span>}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
