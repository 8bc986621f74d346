import type { Definition } from './model';

/** A draft kept in the browser until it is saved or discarded. */
export interface StoredDraft {
  definition: Definition;
  /** The automation version the draft was started from (absent for a new automation). */
  baseVersion?: number;
  /** When it was last changed (ISO 8601). */
  savedAt: string;
}

/** The localStorage key of the draft of an automation, or of a new one in a workspace. */
export function draftKey(automationId: string | undefined, workspaceId: string | undefined): string {
  return automationId ? `taskspace.automation-draft.${automationId}` : `taskspace.automation-draft.new.${workspaceId ?? ''}`;
}

/** The stored draft, or null (none, or unreadable). */
export function readDraft(key: string): StoredDraft | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as StoredDraft;
    return parsed && typeof parsed === 'object' && parsed.definition && typeof parsed.definition === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/** Stores a draft (a full or blocked storage only loses the draft, never the editing). */
export function writeDraft(key: string, draft: StoredDraft): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft lives only on this page.
  }
}

/** Forgets a draft. */
export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored.
  }
}
