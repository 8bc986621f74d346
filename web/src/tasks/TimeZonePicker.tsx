import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';

/** Most options the list shows at once; typing narrows the rest. */
const MAX_SHOWN = 60;

/** Every IANA zone the browser knows (a short list when it cannot tell), with UTC and `current` first when missing. */
export function timeZones(current: string, local: string): string[] {
  const all = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC', local];
  return [...new Set(['UTC', current, ...all])];
}

/** A zone as people type it: lower case, `_` and `/` as spaces ("america new york"). */
function searchable(zone: string): string {
  return zone.toLowerCase().replace(/[_/]/g, ' ');
}

/** The zones whose name contains every word of `query`, those starting with it first. */
export function matchZones(zones: readonly string[], query: string): string[] {
  const words = searchable(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...zones];
  const found = zones.filter((z) => words.every((w) => searchable(z).includes(w)));
  const starts = (z: string) =>
    searchable(z)
      .split(' ')
      .some((part) => part.startsWith(words[0]!));
  return [...found.filter(starts), ...found.filter((z) => !starts(z))];
}

/**
 * The state and keys of a {@link TimeZonePicker} choosing among `zones` (its list box `listId`):
 * the text typed (null while showing `value`), whether the list is open, the active option.
 */
function useZoneCombobox(value: string, onChange: (zone: string) => void, zones: readonly string[], listId: string) {
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const matches = useMemo(() => matchZones(zones, query ?? ''), [zones, query]);
  const shown = matches.slice(0, MAX_SHOWN);

  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const pick = (zone: string) => {
    onChange(zone);
    close();
  };
  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(shown.length - 1, index));
    setActive(next);
    list.current?.querySelector(`#${CSS.escape(`${listId}-${next}`)}`)?.scrollIntoView({ block: 'nearest' });
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        const at = shown.indexOf(value);
        setActive(at >= 0 ? at : 0);
        return;
      }
      moveTo(active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Home' && open) {
      e.preventDefault();
      moveTo(0);
    } else if (e.key === 'End' && open) {
      e.preventDefault();
      moveTo(shown.length - 1);
    } else if (e.key === 'Enter') {
      if (!open) return;
      e.preventDefault();
      const zone = shown[active];
      if (zone) pick(zone);
    } else if (e.key === 'Escape') {
      if (!open && query === null) return;
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };
  const onBlur = () => {
    if (query !== null) {
      const exact = zones.find((z) => z.toLowerCase() === query.trim().toLowerCase());
      if (exact && exact !== value) onChange(exact);
    }
    close();
  };
  return { query, setQuery, open, setOpen, active, setActive, list, matches, shown, pick, onKey, onBlur };
}

/**
 * A searchable time-zone picker (WAI-ARIA combobox with a list box): typing filters the browser's
 * zones ("york", "new york", "paris"); ↓/↑ move through them, Enter or a click picks one, Escape
 * closes the list and keeps the zone chosen before. Leaving the field keeps a zone typed exactly,
 * otherwise the one chosen before.
 */
export function TimeZonePicker({
  value,
  onChange,
  zones,
  label = 'Time zone',
}: {
  value: string;
  onChange: (zone: string) => void;
  zones: readonly string[];
  label?: string;
}) {
  const id = useId();
  const listId = `${id}-zones`;
  const { query, setQuery, open, setOpen, active, setActive, list, matches, shown, pick, onKey, onBlur } = useZoneCombobox(
    value,
    onChange,
    zones,
    listId,
  );

  return (
    <div className="tz-picker">
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        value={query ?? value}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(e) => e.currentTarget.select()}
        onClick={() => setOpen(true)}
        onKeyDown={onKey}
        onBlur={onBlur}
      />
      <div className="tz-popup" hidden={!open}>
        <ul ref={list} id={listId} role="listbox" aria-label="Matching zones" className="tz-options">
          {open &&
            shown.map((zone, i) => (
              <li
                key={zone}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={zone === value}
                className={i === active ? 'active' : undefined}
                // Picks before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(zone);
                }}
              >
                {zone.replace(/_/g, ' ')}
              </li>
            ))}
        </ul>
        {open && shown.length === 0 && <p className="muted small">No time zone matches “{query}”.</p>}
        {open && matches.length > shown.length && (
          <p className="muted small">{matches.length - shown.length} more: type to narrow the list.</p>
        )}
      </div>
    </div>
  );
}
