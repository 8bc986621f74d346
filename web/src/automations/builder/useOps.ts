import { useMemo, useState, type Dispatch } from 'react';
import { newStep } from './drafting';
import { initialOf } from './fieldSchema';
import type { KindInfo, Kinds } from './kinds';
import type { Path } from './model';
import { focusCard, focusPanel, revealField, type StepOps } from './ops';
import type { BuilderAction, BuilderState } from './state';
import type { Problem } from './validate';

/** Where the kind picker adds: the trigger, or a list and an index. */
export type PickerTarget = { listPath: Path; index: number } | 'trigger' | null;

/** What {@link useOps} builds the flow's operations from. */
export interface OpsInputs {
  state: BuilderState;
  dispatch: Dispatch<BuilderAction>;
  kinds: Kinds | null;
  problems: Problem[];
  problemCount(path: Path | 'trigger'): number;
  stepOf(path: Path): Path | undefined;
  show(message: string, action?: { label: string; run(): void }): void;
}

/**
 * The operations the flow's cards and the side panel use ({@link StepOps}), the kind picker's
 * target and what picking a kind does, and `reveal`: selects the step (or trigger) holding a
 * path, opens its lanes and panel, scrolls to the field and focuses it.
 */
export function useOps({ state, dispatch, kinds, problems, problemCount, stepOf, show }: OpsInputs) {
  const [picker, setPicker] = useState<PickerTarget>(null);
  const { definition, selected, collapsed } = state;
  const ops = useMemo<StepOps | null>(
    () =>
      definition && kinds
        ? {
            definition,
            kinds,
            update: (change, touch) => dispatch({ type: 'edit', change, touch }),
            dispatch: (action) => {
              dispatch(action);
              if (action.type === 'insert') focusPanel();
            },
            notify: (message, before) =>
              show(message, before ? { label: 'Undo', run: () => dispatch({ type: 'replace', definition: before }) } : undefined),
            pick: (listPath, index = 0) => setPicker(listPath === 'trigger' ? 'trigger' : { listPath, index }),
            selected,
            select: (next) => {
              dispatch({ type: 'select', selected: next });
              if (next === null && selected !== null) focusCard(selected);
              else if (next !== null) focusPanel();
            },
            collapsed,
            toggleLane: (lane, open) => dispatch({ type: 'lane', lane, open }),
            problems,
            problemCount,
          }
        : null,
    [definition, kinds, dispatch, show, selected, collapsed, problems, problemCount],
  );

  const onPick = (kind: KindInfo) => {
    const at = picker;
    setPicker(null);
    if (!kinds || !at) return;
    if (at === 'trigger') {
      dispatch({
        type: 'edit',
        change: (d) => ({ ...d, trigger: { ...(initialOf(kind.parameters) as Record<string, unknown>), type: kind.type } }),
      });
      dispatch({ type: 'select', selected: 'trigger' });
      focusPanel();
    } else if (definition) {
      dispatch({ type: 'insert', listPath: at.listPath, index: at.index, step: newStep(definition, kind, kinds) });
      focusPanel();
    }
  };

  const reveal = (path: Path) => {
    if (path[0] === 'trigger') dispatch({ type: 'select', selected: 'trigger' });
    else if (path[0] === 'actions') {
      const step = stepOf(path);
      if (step) dispatch({ type: 'select', selected: step });
    }
    revealField(path);
  };

  return { ops, picker, setPicker, onPick, reveal };
}
