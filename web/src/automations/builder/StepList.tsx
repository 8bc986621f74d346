import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Plus } from 'lucide-react';
import { getAt, moveStep, type Path, type Step } from './model';
import { focusCard, pathKey, useStepOps } from './ops';
import { StepCard } from './StepCard';

/** The "+" between two steps (and after the last): opens the kind picker for that place. */
function AddHere({ listPath, index, label }: { listPath: Path; index: number; label: string }) {
  const { pick } = useStepOps();
  return (
    <div className="add-here">
      <button type="button" className="add-step" aria-label={label} title={label} onClick={() => pick(listPath, index)}>
        <Plus size={14} aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * A vertical list of step cards (the automation's actions, or a branch's, loop's, approval's,
 * parallel branch's or error path's): a "+" between any two, reordered by dragging the handle
 * (dnd-kit: pointer, or Space and the arrow keys on the handle) or with Alt+↑/↓ on a card.
 */
export function StepList({ listPath, label }: { listPath: Path; label: string }) {
  const { definition, update } = useStepOps();
  const list = (getAt(definition, listPath) as Step[] | undefined) ?? [];
  const key = pathKey(listPath);
  const ids = list.map((_, i) => `${key}#${i}`);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from < 0 || to < 0) return;
    update((d) => moveStep(d, listPath, from, to));
    focusCard([...listPath, to]);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="step-list" aria-label={label}>
          {list.map((step, i) => (
            <li key={ids[i]}>
              <AddHere listPath={listPath} index={i} label={`Add a step before ${step.id ?? `step ${i + 1}`}`} />
              <StepCard sortId={ids[i]!} path={[...listPath, i]} step={step} />
            </li>
          ))}
          <li>
            <AddHere
              listPath={listPath}
              index={list.length}
              label={list.length === 0 ? `Add a step to ${label}` : `Add a step after ${list.at(-1)?.id ?? 'the last step'}`}
            />
          </li>
        </ol>
      </SortableContext>
    </DndContext>
  );
}
