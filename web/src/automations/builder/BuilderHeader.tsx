/** Which editor the builder shows: the cards' form or the definition as JSON. */
export type BuilderView = 'form' | 'json';

/** Props of {@link BuilderHeader}. */
export interface BuilderHeaderProps {
  /** The page's heading ("New automation", "Edit …"). */
  title: string;
  view: BuilderView;
  onView(view: BuilderView): void;
  /** A save is under way (the button reads "Saving…" and is disabled). */
  saving: boolean;
  /** Why saving is blocked (shown next to the button and describing it); `null` when it is not. */
  reason: string | null;
  /** The draft's problems, each with a link that opens its step and focuses its field. */
  problems: { key: string; text: string; go(): void }[];
  onSave(): void;
}

/** How many problems the Save bar lists as links (the rest are counted). */
const LISTED = 5;

/**
 * The builder's heading, its Form/JSON tabs, the save button (always at the end of the row) with
 * the reason it is blocked, and the draft's problems as links to their fields.
 */
export function BuilderHeader({ title, view, onView, saving, reason, problems, onSave }: BuilderHeaderProps) {
  return (
    <header className="builder-head">
      <h1 id="builder-title">{title}</h1>
      <div className="row" role="tablist" aria-label="Editor view">
        <button
          type="button"
          role="tab"
          aria-selected={view === 'form'}
          className={view === 'form' ? '' : 'secondary'}
          onClick={() => onView('form')}
        >
          Form
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={view === 'json'}
          className={view === 'json' ? '' : 'secondary'}
          onClick={() => onView('json')}
        >
          JSON
        </button>
      </div>
      <div className="save-bar">
        <button type="button" disabled={saving || reason !== null} aria-describedby={reason ? 'save-reason' : undefined} onClick={onSave}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        {reason && (
          <span id="save-reason" className="muted small">
            {reason}
          </span>
        )}
      </div>
      {problems.length > 0 && (
        <nav className="save-problems" aria-label={`${problems.length} problem${problems.length > 1 ? 's' : ''}`}>
          <span className="small">
            {problems.length} problem{problems.length > 1 ? 's' : ''}:
          </span>
          <ul>
            {problems.slice(0, LISTED).map((p) => (
              <li key={p.key}>
                <button type="button" className="link small" onClick={p.go}>
                  {p.text}
                </button>
              </li>
            ))}
            {problems.length > LISTED && <li className="muted small">and {problems.length - LISTED} more</li>}
          </ul>
        </nav>
      )}
    </header>
  );
}
