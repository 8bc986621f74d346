import { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { Automation } from '../types';
import { startingDefinition } from './drafting';
import { readDraft, writeDraft } from './drafts';
import type { Kinds } from './kinds';
import { allSteps, formatPath, getAt, startsWith, type Path } from './model';
import { pathKey } from './ops';
import { draftProblems } from './problems';
import { builderReducer, INITIAL_STATE } from './state';

/** What {@link useBuilderState} loads the draft from. */
export interface BuilderSource {
  /** The browser's draft key (drafts.ts). */
  key: string;
  kinds: Kinds | null;
  /** The saved automation (undefined for a new one, or while it loads). */
  saved: Automation | undefined;
  /** False while the saved automation is still loading. */
  ready: boolean;
}

/**
 * The builder's state through {@link builderReducer}: the starting draft (one kept in the browser,
 * else the saved automation, else an empty one with the trigger open), kept in the browser as it
 * changes, the service's verdict dropped once the value it names changes.
 */
export function useBuilderState({ key, kinds, saved, ready }: BuilderSource) {
  const [state, dispatch] = useReducer(builderReducer, INITIAL_STATE);
  const { definition, dirty, serverProblem } = state;

  useEffect(() => {
    if (definition || !kinds || !ready) return;
    const stored = readDraft(key);
    if (stored) dispatch({ type: 'load', definition: stored.definition, restored: stored.savedAt });
    else dispatch({ type: 'load', definition: startingDefinition(saved, kinds), selected: saved ? null : 'trigger' });
  }, [definition, kinds, ready, key, saved]);

  useEffect(() => {
    if (dirty && definition)
      writeDraft(key, { definition, savedAt: new Date().toISOString(), ...(saved ? { baseVersion: saved.version } : {}) });
    // Written when the draft changes, not when the key does (a new automation's first save moves it).
  }, [definition, dirty]);

  useEffect(() => {
    if (serverProblem && definition && JSON.stringify(getAt(definition, serverProblem.path) ?? null) !== serverProblem.seen)
      dispatch({ type: 'server', problem: null });
  }, [definition, serverProblem]);

  return { state, dispatch };
}

/**
 * The draft's problems: `blocking` (the builder's own checks, all of them), `problems` (those shown:
 * the service's verdict, and the builder's own on cards already edited), the step holding a path
 * and the count of problems per card.
 */
export function useProblems(state: ReturnType<typeof useBuilderState>['state'], kinds: Kinds | null) {
  const { definition, serverProblem, touched } = state;
  const blocking = useMemo(() => (definition && kinds ? draftProblems(definition, kinds) : []), [definition, kinds]);
  const stepPaths = useMemo(
    () => (definition && kinds ? allSteps(definition, kinds.nestedOf).map((s) => s.path) : []),
    [definition, kinds],
  );
  /** The path of the step holding `path` (the innermost), or `undefined` outside the steps. */
  const stepOf = useCallback((path: Path) => stepPaths.filter((s) => startsWith(path, s)).at(-1), [stepPaths]);
  const cardOf = useCallback((path: Path) => (path[0] === 'actions' ? pathKey(stepOf(path) ?? path) : String(path[0])), [stepOf]);
  const problems = useMemo(() => {
    const own = blocking.filter((p) => touched === 'all' || p.path[0] === 'name' || touched.has(cardOf(p.path)));
    return serverProblem ? [serverProblem, ...own.filter((p) => formatPath(p.path) !== formatPath(serverProblem.path))] : own;
  }, [serverProblem, blocking, touched, cardOf]);
  const problemCount = useCallback(
    (path: Path | 'trigger') => {
      const card = path === 'trigger' ? 'trigger' : pathKey(path);
      return problems.filter((p) => cardOf(p.path) === card).length;
    },
    [problems, cardOf],
  );
  const listed = serverProblem
    ? [serverProblem, ...blocking.filter((p) => formatPath(p.path) !== formatPath(serverProblem.path))]
    : blocking;
  return { blocking, problems, listed, stepOf, problemCount };
}
