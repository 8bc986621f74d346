import { useEffect, useMemo, useRef, useState } from 'react';
import { KindIcon } from './icons';
import './overlays.css';
import type { KindInfo } from './kinds';

/**
 * The kinds matching `query` (title, summary, type or category), best first: built-in kinds before
 * the pieces' (docs/integrations.md); then titles that start with the query, then titles that
 * contain it, then the rest; the catalogue's order otherwise.
 */
function matching(kinds: KindInfo[], query: string): KindInfo[] {
  const q = query.trim().toLowerCase();
  const found = kinds.filter((k) => !q || `${k.title} ${k.summary} ${k.type} ${k.category}`.toLowerCase().includes(q));
  if (!q) return found;
  const rank = (k: KindInfo) => (k.piece ? 3 : 0) + (k.title.toLowerCase().startsWith(q) ? 0 : k.title.toLowerCase().includes(q) ? 1 : 2);
  return found
    .map((k, i) => ({ k, i }))
    .sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i)
    .map((x) => x.k);
}

/**
 * The searchable list of kinds (a modal dialog): grouped by category, each with its icon, title and
 * one-line summary. Typing filters; Enter in the search takes the first match; Escape closes.
 */
export function KindPicker({
  title,
  kinds,
  onPick,
  onClose,
}: {
  title: string;
  kinds: KindInfo[];
  onPick(kind: KindInfo): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  useEffect(() => {
    const d = dialog.current!;
    if (!d.open) d.showModal();
    // showModal focuses the first button (Close): the search is where typing should go.
    search.current?.focus();
    return () => d.close();
  }, []);
  const shown = useMemo(() => matching(kinds, query), [kinds, query]);
  const groups = useMemo(() => {
    const by = new Map<string, KindInfo[]>();
    for (const k of shown) by.set(k.category, [...(by.get(k.category) ?? []), k]);
    return [...by];
  }, [shown]);
  return (
    <dialog
      ref={dialog}
      className="kind-picker"
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header>
        <h2>{title}</h2>
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </header>
      <input
        type="search"
        aria-label="Search kinds"
        placeholder="Search…"
        ref={search}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && shown[0]) {
            e.preventDefault();
            onPick(shown[0]);
          }
        }}
      />
      <div className="kind-groups">
        {groups.length === 0 && <p className="muted">Nothing matches “{query}”.</p>}
        {groups.map(([category, list]) => {
          const items = (
            <ul>
              {list.map((k) => (
                <li key={k.type}>
                  <button type="button" className="kind-option" onClick={() => onPick(k)}>
                    <KindIcon name={k.icon} size={20} />
                    <span>
                      <strong>{k.title}</strong>
                      <span className="muted small">{k.summary.split('\n')[0]}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          );
          // A piece's actions (Integrations) are folded until opened or searched: there are hundreds.
          if (list[0]?.piece)
            return (
              <details key={category} className="kind-piece" open={query.trim() !== '' || undefined}>
                <summary>
                  {category} <span className="muted small">({list.length})</span>
                </summary>
                {items}
              </details>
            );
          return (
            <section key={category} aria-label={category}>
              <h3>{category}</h3>
              {items}
            </section>
          );
        })}
      </div>
    </dialog>
  );
}
