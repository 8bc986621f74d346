import { insertStep, moveStep, removeStep, startsWith, type Definition, type Path, type Step } from './model';
import type { ServerProblem } from './draftCheck';

/** What the builder's side panel shows: the trigger, a step (by path) or nothing. */
export type Selection = Path | 'trigger' | null;

/**
 * The builder's screen state (docs "Web app", "Automation builder"): the draft and everything the
 * flow view keeps about it. Steps are addressed by path; the reducer keeps the selected step and
 * the collapsed lanes on the same steps when steps are inserted, removed or moved.
 */
export interface BuilderState {
  definition: Definition | null;
  /** When the draft restored from the browser was kept, or null. */
  restored: string | null;
  /** The draft changed since it was loaded (it is then kept in the browser). */
  dirty: boolean;
  selected: Selection;
  /** Lanes (a step's nested list, by path key) drawn folded. */
  collapsed: Set<string>;
  /** Cards edited so far (their own problems show), or `'all'` for a restored or typed-in draft. */
  touched: Set<string> | 'all';
  /** The service's verdict on the draft (the draft check or a refused save). */
  serverProblem: ServerProblem | null;
}

/** The changes the builder makes to its {@link BuilderState}. */
export type BuilderAction =
  | { type: 'load'; definition: Definition; restored?: string; selected?: Selection }
  | { type: 'edit'; change: (d: Definition) => Definition; touch?: Path }
  | { type: 'replace'; definition: Definition }
  | { type: 'insert'; listPath: Path; index: number; step: Step }
  | { type: 'remove'; path: Path }
  | { type: 'move'; listPath: Path; from: number; to: number }
  | { type: 'select'; selected: Selection }
  | { type: 'lane'; lane: Path; open?: boolean }
  | { type: 'reveal'; path: Path }
  | { type: 'touch'; path: Path | 'all' }
  | { type: 'server'; problem: ServerProblem | null }
  | { type: 'saved' };

/** The state before anything is loaded. */
export const INITIAL_STATE: BuilderState = {
  definition: null,
  restored: null,
  dirty: false,
  selected: null,
  collapsed: new Set(),
  touched: new Set(),
  serverProblem: null,
};

/** A structural change to a step list, as {@link remapPath} follows it. */
type ListChange =
  | { kind: 'insert'; listPath: Path; index: number }
  | { kind: 'remove'; listPath: Path; index: number }
  | { kind: 'move'; listPath: Path; from: number; to: number };

/**
 * Where a path into the definition points after a list change: later siblings shift on insert and
 * remove, a moved step takes its new index; `null` for a path inside a removed step.
 */
export function remapPath(path: Path, change: ListChange): Path | null {
  const depth = change.listPath.length;
  if (!startsWith(path, change.listPath) || typeof path[depth] !== 'number') return path;
  const i = path[depth] as number;
  let next = i;
  if (change.kind === 'insert') next = i >= change.index ? i + 1 : i;
  else if (change.kind === 'remove') {
    if (i === change.index) return null;
    next = i > change.index ? i - 1 : i;
  } else {
    const { from, to } = change;
    if (i === from) next = to;
    else if (from < to && i > from && i <= to) next = i - 1;
    else if (to < from && i >= to && i < from) next = i + 1;
  }
  return [...path.slice(0, depth), next, ...path.slice(depth + 1)];
}

/** The path key (`actions.1.then`) of a path. */
function keyOf(path: Path): string {
  return path.join('.');
}

/** The selection and the collapsed lanes after a list change. */
function follow(state: BuilderState, change: ListChange): Pick<BuilderState, 'selected' | 'collapsed'> {
  const selected = Array.isArray(state.selected) ? remapPath(state.selected, change) : state.selected;
  const collapsed = new Set<string>();
  for (const k of state.collapsed) {
    const path = k.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const next = remapPath(path, change);
    if (next) collapsed.add(keyOf(next));
  }
  return { selected, collapsed };
}

/** The lanes holding `path` (each nested list on the way), opened. */
function opened(collapsed: Set<string>, path: Path): Set<string> {
  const next = new Set(collapsed);
  for (let n = 1; n < path.length; n++) if (typeof path[n] === 'number') next.delete(keyOf(path.slice(0, n)));
  return next;
}

/** The draft changed: kept as edited. */
function edited(state: BuilderState, definition: Definition, extra: Partial<BuilderState> = {}): BuilderState {
  return { ...state, definition, dirty: true, ...extra };
}

/**
 * The builder's reducer over its draft operations (model.ts): edits, inserts, removals and moves
 * of steps (the selection and the folded lanes follow the steps), selection, lanes, the cards
 * edited and the service's verdict.
 */
export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  const d = state.definition;
  switch (action.type) {
    case 'load':
      return {
        ...INITIAL_STATE,
        definition: action.definition,
        restored: action.restored ?? null,
        touched: action.restored ? 'all' : new Set(),
        selected: action.selected ?? null,
      };
    case 'edit': {
      if (!d) return state;
      const touched = action.touch ? touch(state.touched, action.touch) : state.touched;
      return edited(state, action.change(d), { touched });
    }
    case 'replace':
      return d ? edited(state, action.definition) : state;
    case 'insert': {
      if (!d) return state;
      const change = { kind: 'insert', listPath: action.listPath, index: action.index } as const;
      const path = [...action.listPath, action.index];
      return edited(state, insertStep(d, action.listPath, action.index, action.step), {
        collapsed: opened(follow(state, change).collapsed, path),
        selected: path,
      });
    }
    case 'remove': {
      if (!d) return state;
      const change = { kind: 'remove', listPath: action.path.slice(0, -1), index: action.path.at(-1) as number } as const;
      return edited(state, removeStep(d, action.path), follow(state, change));
    }
    case 'move': {
      if (!d) return state;
      const change = { kind: 'move', listPath: action.listPath, from: action.from, to: action.to } as const;
      return edited(state, moveStep(d, action.listPath, action.from, action.to), follow(state, change));
    }
    case 'select':
      return {
        ...state,
        selected: action.selected,
        collapsed: Array.isArray(action.selected) ? opened(state.collapsed, action.selected) : state.collapsed,
      };
    case 'lane': {
      const k = keyOf(action.lane);
      const collapsed = new Set(state.collapsed);
      if (action.open ?? collapsed.has(k)) collapsed.delete(k);
      else collapsed.add(k);
      return { ...state, collapsed };
    }
    case 'reveal':
      return { ...state, collapsed: opened(state.collapsed, action.path) };
    case 'touch':
      return { ...state, touched: action.path === 'all' ? 'all' : touch(state.touched, action.path) };
    case 'server':
      return { ...state, serverProblem: action.problem };
    case 'saved':
      return { ...state, dirty: false, restored: null, serverProblem: null };
  }
}

function touch(touched: Set<string> | 'all', path: Path): Set<string> | 'all' {
  const k = keyOf(path);
  return touched === 'all' || touched.has(k) ? touched : new Set(touched).add(k);
}
