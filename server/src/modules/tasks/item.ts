/**
 * The task item shapes the API returns (spec section 2). A leaf module (no imports) so that the
 * service container type (`services.ts`) can name them without an import loop.
 */

/** A task as the API returns it (spec section 2). `parentId` is present only on subtasks. */
export interface Task {
  /** uuid */
  id: string;
  text: string;
  completed: boolean;
  /** uuid of the parent task; absent for top-level tasks (blocks). */
  parentId?: string;
}

/** A top-level task as the blocks list returns it (spec section 2): no `parentId`. */
export interface Block {
  id: string;
  text: string;
  completed: boolean;
}
