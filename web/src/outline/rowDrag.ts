import { useRef, useState, type DragEvent } from 'react';
import type { RowHandlers } from './TaskRow';
import type { Row } from './tree';

/** Where a dragged task would land: just before or just after the task under the pointer. */
export type DropPosition = 'beforebegin' | 'afterend';

/** The task a drag is over and on which half of it; `null` while no drag is over a task. */
export type DropTarget = { id: string; position: DropPosition } | null;

/** The drop position for the pointer in `event`: the upper half of the row is before it, the lower after. */
function dropPosition(event: DragEvent<HTMLDivElement>): DropPosition {
  const box = event.currentTarget.getBoundingClientRect();
  return event.clientY < box.top + box.height / 2 ? 'beforebegin' : 'afterend';
}

/**
 * Drag and drop of outline rows (native HTML drag events): the row being dragged, the drop
 * indicator, and each row's handlers. `onDrop` is called once per drop with the moved task and
 * where it goes (never for a drop on the task itself).
 */
export function useRowDrag(onDrop: (moving: Row, to: { taskId: string; position: DropPosition }) => void) {
  const dragged = useRef<Row | null>(null);
  const [dropAt, setDropAt] = useState<DropTarget>(null);
  const dragHandlers = (row: Row): NonNullable<RowHandlers['drag']> => ({
    onDragStart: (e: DragEvent) => {
      dragged.current = row;
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', row.text);
    },
    onDragEnd: () => {
      dragged.current = null;
      setDropAt(null);
    },
    onDragOver: (event: DragEvent<HTMLDivElement>) => {
      if (!dragged.current || dragged.current.id === row.id) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      const position = dropPosition(event);
      if (dropAt?.id !== row.id || dropAt.position !== position) setDropAt({ id: row.id, position });
    },
    onDragLeave: () => setDropAt((d) => (d?.id === row.id ? null : d)),
    onDrop: (event: DragEvent<HTMLDivElement>) => {
      event.preventDefault();
      const moving = dragged.current;
      dragged.current = null;
      setDropAt(null);
      if (!moving || moving.id === row.id) return;
      onDrop(moving, { taskId: row.id, position: dropPosition(event) });
    },
  });
  return { dropAt, dragHandlers };
}
