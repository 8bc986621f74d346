import { useRef, useState, type CSSProperties, type KeyboardEvent, type Ref } from 'react';
import { errorMessage } from '../api/client';
import { MAX_TASK_CHARS, type Place, type Row, type TaskItem } from './tree';

/** Where a new task being typed will go: after `after` (as its first child when `asChild`), or at the end. */
export interface Draft {
  after?: Row;
  asChild: boolean;
  depth: number;
}

/** What {@link useNewTaskLine} needs from the outline. */
export interface NewTaskLineOptions {
  /** Creates a task with `text` at `place` (the outline's undoable create). */
  create(text: string, place: Place): Promise<TaskItem>;
  /** Shows a failed create's message. */
  onError(message: string): void;
  /** Moves the focus to the task with this id (after the line is closed). */
  focus(id: string): void;
}

/**
 * The new-task line: opened by Enter or "Add task", ended by Escape (or Backspace while empty).
 * Tasks typed in one session are created one after another, each after the one before, so fast
 * typing keeps order; closing the line lands on the last task it made, or where it was opened.
 */
export function useNewTaskLine({ create, onError, focus }: NewTaskLineOptions) {
  const [draft, setDraft] = useState<Draft | null>(null);
  // One new-task line session: a session ended or reopened ignores creates still under way.
  const session = useRef(0);
  const lastCreated = useRef<Promise<Row | undefined>>(Promise.resolve(undefined));

  /** Opens the line at `next` (a new session). */
  const openDraft = (next: Draft) => {
    session.current++;
    lastCreated.current = Promise.resolve(undefined);
    setDraft(next);
  };

  /** The line's keys: Enter creates the typed task, Escape or Backspace on empty text closes the line. */
  function onDraftKey(event: KeyboardEvent<HTMLInputElement>) {
    const text = event.currentTarget.value;
    const opened = draft;
    if (!opened) return;
    if (event.key === 'Escape' || (event.key === 'Backspace' && text === '')) {
      event.preventDefault();
      const ended = ++session.current;
      setDraft(null);
      // Land on the last task this line made (once made), or back where the line was opened.
      void lastCreated.current.then((made) => {
        const back = made?.id ?? opened.after?.id;
        if (back && session.current === ended) focus(back);
      });
    } else if (event.key === 'Enter' && text.trim() !== '') {
      event.preventDefault();
      event.currentTarget.value = '';
      const current = session.current;
      lastCreated.current = lastCreated.current.then(async (previous) => {
        const after = previous ?? opened.after;
        const position = previous || !opened.asChild ? 'afterend' : 'afterbegin';
        try {
          const created = await create(text, after ? { taskId: after.id, position } : { position: 'beforeend' });
          const made = { ...created, depth: opened.depth } as Row;
          if (session.current === current) setDraft({ after: made, asChild: false, depth: opened.depth });
          return made;
        } catch (e) {
          onError(errorMessage(e));
          return previous;
        }
      });
    }
  }

  return { draft, openDraft, onDraftKey };
}

/** Props of {@link NewTaskRow}. */
export interface NewTaskRowProps {
  depth: number;
  /** The virtual row's position and height. */
  style: CSSProperties;
  /** Set while the line is to take the focus. */
  inputRef?: Ref<HTMLInputElement>;
  onFocus(): void;
  onKeyDown(event: KeyboardEvent<HTMLInputElement>): void;
}

/** The new-task line's row in the outline tree: a bullet and the "New task" input. */
export function NewTaskRow({ depth, style, inputRef, onFocus, onKeyDown }: NewTaskRowProps) {
  return (
    <div
      className="task"
      style={{ ...style, paddingInlineStart: `${depth * 1.5}rem` }}
      role="treeitem"
      aria-level={depth + 1}
      aria-selected={false}
    >
      <span className="bullet" aria-hidden="true" />
      <input
        ref={inputRef}
        data-row="draft"
        aria-label="New task"
        onFocus={onFocus}
        maxLength={MAX_TASK_CHARS * 2}
        placeholder="New task"
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
