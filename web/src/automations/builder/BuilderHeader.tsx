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
  onSave(): void;
}

/** The builder's heading, its Form/JSON tabs and the save button with the reason it is blocked. */
export function BuilderHeader({ title, view, onView, saving, reason, onSave }: BuilderHeaderProps) {
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
    </header>
  );
}
