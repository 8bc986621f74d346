import { useCallback, useEffect, useMemo, useRef, type CSSProperties, type ReactNode, type Ref } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Draft } from './NewTaskLine';
import type { Row } from './tree';

/** Height of one line of the outline, in CSS pixels. */
const ROW_PX = 38;

type Item = { kind: 'task'; row: Row } | { kind: 'draft'; depth: number };

/** What {@link OutlineRows} asks of the outline for each line it renders. */
export interface RowRenderers {
  /** A task's line: positioned by `style`; `inputRef` (when set) focuses its text box once rendered. */
  task: (row: Row, style: CSSProperties, inputRef: Ref<HTMLInputElement> | undefined) => ReactNode;
  /** The new-task line, `depth` levels in. */
  draft: (depth: number, style: CSSProperties, inputRef: Ref<HTMLInputElement> | undefined) => ReactNode;
}

/**
 * The outline's lines, virtualised (only the visible ones are rendered, so a 10,000-task project
 * opens and scrolls at once): the rows on screen with the new-task line below the task it follows.
 * `focusId` (a task id, or `'draft'`) is brought into view and focused once rendered, then cleared
 * through `onFocused`.
 */
export function OutlineRows({
  shown,
  draft,
  focusId,
  onFocused,
  render,
}: {
  shown: readonly Row[];
  draft: Draft | null;
  focusId: string | null;
  onFocused: () => void;
  render: RowRenderers;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const items = useMemo<Item[]>(() => {
    const list: Item[] = shown.map((row) => ({ kind: 'task', row }));
    if (draft) {
      const at = draft.after ? list.findIndex((i) => i.kind === 'task' && i.row.id === draft.after!.id) + 1 : list.length;
      list.splice(at > 0 || !draft.after ? at : list.length, 0, { kind: 'draft', depth: draft.depth });
    }
    return list;
  }, [shown, draft]);
  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 12,
  });
  // Bring the row to focus into view; the row focuses itself when it renders (focusRef).
  useEffect(() => {
    if (!focusId) return;
    const index = items.findIndex((i) => (focusId === 'draft' ? i.kind === 'draft' : i.kind === 'task' && i.row.id === focusId));
    if (index >= 0) virtual.scrollToIndex(index, { align: 'auto' });
  }, [focusId, items, virtual]);
  const focusRef = useCallback(
    (input: HTMLInputElement | null) => {
      if (!input) return;
      input.focus();
      onFocused();
    },
    [onFocused],
  );
  return (
    <div
      ref={scroller}
      className="outline-scroll"
      role="tree"
      aria-label="Tasks"
      aria-describedby="outline-help"
      aria-multiselectable="true"
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => {
          const item = items[v.index]!;
          const style = { transform: `translateY(${v.start}px)`, height: ROW_PX };
          if (item.kind === 'draft') return render.draft(item.depth, style, focusId === 'draft' ? focusRef : undefined);
          return render.task(item.row, style, focusId === item.row.id ? focusRef : undefined);
        })}
      </div>
    </div>
  );
}
