import { useEffect } from 'react';

/** The window event the command palette sends to the outline on screen (detail: an {@link OutlineCommand}). */
export const OUTLINE_COMMAND = 'taskspace:outline-command';

/** What the palette can ask of the outline. */
export type OutlineCommand = 'undo' | 'redo' | 'search' | 'collapse-all' | 'expand-all' | 'show-open' | 'show-completed' | 'add-task';

/** Sends `command` to the outline on screen (nothing happens on other screens). */
export function sendOutlineCommand(command: OutlineCommand): void {
  window.dispatchEvent(new CustomEvent<OutlineCommand>(OUTLINE_COMMAND, { detail: command }));
}

/** Runs `handle` for each command the palette sends while the calling outline is shown (the latest `handle`). */
export function useOutlineCommands(handle: (command: OutlineCommand) => void): void {
  useEffect(() => {
    const listen = (event: Event) => handle((event as CustomEvent<OutlineCommand>).detail);
    window.addEventListener(OUTLINE_COMMAND, listen);
    return () => window.removeEventListener(OUTLINE_COMMAND, listen);
  });
}
