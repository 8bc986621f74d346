import MarkdownIt from 'markdown-it';
import type { Query, Sql } from '../../platform/db/query';
import { badRequest } from '../../errors';
import { newTaskId } from '../../platform/ids';
import { keyBetween } from '../tasks/rank';
import { PATH_SEPARATOR } from '../tasks/tree';
import { MAX_CONTENT_LENGTH, type ContentType } from '../tasks/service';
import { characterCount } from '../tasks/records';
import { insertRows } from '../../platform/db/bulk-insert';

/**
 * Turns the `content` of a project-create body into a project name and a tree of tasks
 * (spec section 4.2 `POST /api/v1/projects`; README "Projects, templates, share links and custom fields", "Creating from content"), and inserts
 * that tree into a new project.
 *
 * `text/markdown` (parsed with markdown-it):
 * - the first top-level heading is the project name (none → {@link UNTITLED_PROJECT});
 * - list items become tasks, nested lists subtasks; a GFM task marker `[ ]` / `[x]` at the
 *   start of an item sets `completed`;
 * - every later top-level heading becomes a block (top-level task) and the content that
 *   follows it, up to the next heading, becomes its children;
 * - paragraphs, code blocks and table rows become tasks at the current level (inside a list
 *   item: children of the item, after its first paragraph, which is the item's own text);
 * - line breaks inside an item are joined with single spaces; inline markdown is kept as
 *   written (`**bold**` stays `**bold**`);
 * - an item without text (`- [ ]`, or `-` directly followed by a nested list) is dropped and
 *   its children move up to its place; an empty later heading ends the current section (what
 *   follows is top-level again); thematic breaks are ignored; raw HTML is kept as text.
 *
 * `text/plain`: the first non-empty line is the name, each further non-empty line (trimmed)
 * a top-level task.
 */

/** Content types accepted by project creation: the task content types. */
export { CONTENT_TYPES, type ContentType } from '../tasks/service';

/** Name given to a project whose content has no heading (markdown) or no non-empty line (plain text). */
export const UNTITLED_PROJECT = 'Untitled project';
/** Longest project name, in characters (also the limit of `projectTitle`). */
export const MAX_PROJECT_NAME = 200;
/** Most tasks one content import may create. */
export const MAX_IMPORTED_TASKS = 10_000;

/** One task parsed from content, with its subtasks in document order. */
export interface ImportedTask {
  text: string;
  completed: boolean;
  children: ImportedTask[];
}

/** The result of {@link parseProjectContent}. */
export interface ParsedContent {
  /** The project name: 1..{@link MAX_PROJECT_NAME} characters, no line breaks. */
  name: string;
  /** Top-level tasks (blocks) in document order. */
  tasks: ImportedTask[];
  /** Number of tasks in the whole tree. */
  count: number;
}

// Only the block structure is needed: inline markdown stays as written, so inline parsing is off.
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false }).disable('inline');
/** markdown-it's nesting limit (100 in its default preset); content nested deeper would be silently cut, so it is refused. */
const MAX_NESTING = (markdown.options as { maxNesting?: number }).maxNesting ?? 100;
const TASK_MARKER = /^\[([ xX])\](?:\s+|$)/;

/** Collapses line breaks (and the blanks around them) into single spaces and trims. */
function oneLine(text: string): string {
  return text.replace(/[ \t]*(?:\r\n|\r|\n)[ \t]*/g, ' ').trim();
}

function projectName(text: string): string {
  const name = oneLine(text);
  if (name === '') return UNTITLED_PROJECT;
  if (name.length > MAX_PROJECT_NAME && characterCount(name) > MAX_PROJECT_NAME) {
    throw badRequest('content', 'title_too_long', `the project name (first heading or line) is longer than ${MAX_PROJECT_NAME} characters`);
  }
  return name;
}

/** Counts tasks and enforces the per-task and per-import limits while the tree is built. */
class Budget {
  count = 0;

  /** A new task node for `text`, counted against the limits. */
  task(text: string, completed = false): ImportedTask {
    if (text.length > MAX_CONTENT_LENGTH && characterCount(text) > MAX_CONTENT_LENGTH) {
      throw badRequest('content', 'task_too_long', `a task is longer than ${MAX_CONTENT_LENGTH} characters: '${text.slice(0, 40)}…'`);
    }
    this.count++;
    if (this.count > MAX_IMPORTED_TASKS) {
      throw badRequest('content', 'too_many_tasks', `content may create at most ${MAX_IMPORTED_TASKS} tasks`);
    }
    return { text, completed, children: [] };
  }
}

/** An open container while walking markdown tokens: the root/current section, or a list item. */
interface Frame {
  children: ImportedTask[];
  /** Set for a list item until its text is known (from its first block, when that is a paragraph). */
  item?: { decided: boolean; node: ImportedTask | undefined };
}

function parseMarkdown(content: string): ParsedContent {
  const tokens: MarkdownIt.Token[] = markdown.parse(content, {});
  // At the nesting limit markdown-it drops the rest of the document; refuse rather than lose content.
  if (tokens.some((t) => t.level >= MAX_NESTING - 2)) {
    throw badRequest('content', 'too_deep', 'lists or quotes are nested too deeply (at most 48 levels of lists)');
  }
  const budget = new Budget();
  const root: ImportedTask[] = [];
  const stack: Frame[] = [{ children: root }];
  let name: string | undefined;
  let row: string[] | undefined;
  const top = () => stack[stack.length - 1]!;

  /** Adds a text at the current level, or makes it the text of a list item still without one. */
  const addText = (raw: string) => {
    const frame = top();
    const text = oneLine(raw);
    if (frame.item && !frame.item.decided) {
      frame.item.decided = true;
      const marker = TASK_MARKER.exec(text);
      const own = marker ? text.slice(marker[0].length).trim() : text;
      if (own !== '') frame.item.node = budget.task(own, marker !== null && marker[1] !== ' ');
      return;
    }
    if (text !== '') frame.children.push(budget.task(text));
  };
  /** Marks the current list item's text as decided (its first block was not a paragraph). */
  const decide = () => {
    const frame = top();
    if (frame.item) frame.item.decided = true;
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    switch (token.type) {
      case 'heading_open': {
        const inline = tokens[i + 1]!;
        i += 2; // inline, heading_close
        if (stack.length > 1) {
          addText(inline.content); // a heading inside a list item reads as a paragraph
        } else if (name === undefined) {
          name = projectName(inline.content);
        } else if (oneLine(inline.content) === '') {
          stack[0] = { children: root }; // an empty heading ends the section: what follows is top-level
        } else {
          const block = budget.task(oneLine(inline.content));
          root.push(block);
          stack[0] = { children: block.children };
        }
        break;
      }
      case 'paragraph_open':
        addText(tokens[i + 1]!.content);
        i += 2; // inline, paragraph_close
        break;
      case 'fence':
      case 'code_block':
        decide();
        addText(token.content);
        break;
      case 'bullet_list_open':
      case 'ordered_list_open':
      case 'blockquote_open':
      case 'table_open':
      case 'hr':
        decide();
        break;
      case 'list_item_open':
        stack.push({ children: [], item: { decided: false, node: undefined } });
        break;
      case 'list_item_close': {
        const frame = stack.pop()!;
        const parent = top().children;
        const node = frame.item!.node;
        if (node) {
          node.children = frame.children;
          parent.push(node);
        } else {
          parent.push(...frame.children); // an item without text: its children take its place
        }
        break;
      }
      case 'tr_open':
        row = [];
        break;
      case 'inline':
        if (row) row.push(oneLine(token.content));
        break;
      case 'tr_close':
        if (row && row.some((cell) => cell !== '')) addText(row.join(' | '));
        row = undefined;
        break;
      default:
        break;
    }
  }
  return { name: name ?? UNTITLED_PROJECT, tasks: root, count: budget.count };
}

function parsePlain(content: string): ParsedContent {
  const budget = new Budget();
  const tasks: ImportedTask[] = [];
  let name: string | undefined;
  for (const raw of content.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (name === undefined) name = projectName(line);
    else tasks.push(budget.task(line));
  }
  return { name: name ?? UNTITLED_PROJECT, tasks, count: budget.count };
}

/**
 * Parses project content into a name and a task tree (rules in this module's header).
 * Pure: touches no storage.
 * @throws ServiceError 400 (field `content`) with reason `task_too_long` (a task over
 *   {@link MAX_CONTENT_LENGTH} characters), `title_too_long` (a name over {@link MAX_PROJECT_NAME}
 *   characters), `too_many_tasks` (over {@link MAX_IMPORTED_TASKS} tasks) or `too_deep`
 *   (markdown nested past markdown-it's limit: more than 48 levels of lists).
 */
export function parseProjectContent(contentType: ContentType, content: string): ParsedContent {
  return contentType === 'text/plain' ? parsePlain(content) : parseMarkdown(content);
}

/** Who and when, for rows written by {@link insertImportedTasks}. */
export interface ImportStamp {
  /** The creating user's id (also `completed_by` of tasks imported as completed). */
  userId: string;
  /** Creation time, ms since the epoch. */
  now: number;
  /** Stored as each task's content type. */
  contentType: ContentType;
}

/** The columns of an imported task row, in the order {@link insertImportedTasks} writes them. */
const IMPORT_COLUMNS = [
  'id',
  'project_id',
  'parent_id',
  'rank',
  'path',
  'text',
  'content_type',
  'completed',
  'completed_at',
  'completed_by',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/**
 * Inserts an imported tree into an empty project, appending siblings with successive rank keys
 * computed in memory (no query per task), parents before their children, with multi-row
 * INSERTs. Call inside the transaction that created the project, with its handle.
 */
export function insertImportedTasks(q: Sql, projectId: string, tasks: ImportedTask[], stamp: ImportStamp): Query<void> {
  const rows: unknown[][] = [];
  const walk = (nodes: ImportedTask[], parentId: string | null, prefix: string) => {
    let previous: string | null = null;
    for (const node of nodes) {
      const rank = keyBetween(previous, null);
      previous = rank;
      const id = newTaskId();
      const path = prefix + rank;
      rows.push([
        id,
        projectId,
        parentId,
        rank,
        path,
        node.text,
        stamp.contentType,
        node.completed ? 1 : 0,
        node.completed ? stamp.now : null,
        node.completed ? stamp.userId : null,
        stamp.userId,
        stamp.now,
        stamp.now,
      ]);
      walk(node.children, id, path + PATH_SEPARATOR);
    }
  };
  walk(tasks, null, '');
  return insertRows(q, 'tasks', IMPORT_COLUMNS, rows);
}
