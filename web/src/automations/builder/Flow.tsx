import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ChevronDown, ChevronRight, GripVertical, Plus, X } from 'lucide-react';
import { StepFlowCard, TriggerCard } from './FlowCard';
import { getAt, nestedLists, setAt, type Path, type Step } from './model';
import { focusCard, pathKey, useStepOps } from './ops';

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

/** A step's lane header: its name as a fold/unfold toggle, the step count when folded, and a remove for extra parallel branches. */
function LaneHead(props: { lane: Path; label: string; owner: Step; ownerPath: Path; steps: number; removable: boolean }) {
  const { lane, label, owner, ownerPath, steps, removable } = props;
  const { collapsed, toggleLane, update, notify, definition } = useStepOps();
  const open = !collapsed.has(pathKey(lane));
  return (
    <h4 className="lane-head">
      <button type="button" className="lane-toggle" aria-expanded={open} onClick={() => toggleLane(lane)}>
        {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
        {label}
        <span className="visually-hidden"> of {owner.id ?? 'step'}</span>
        {!open && (
          <span className="lane-count">
            {' '}
            · {steps} step{steps === 1 ? '' : 's'}
          </span>
        )}
      </button>
      {removable && (
        <button
          type="button"
          className="icon-button"
          aria-label={`Remove ${label.toLowerCase()} of ${owner.id ?? 'step'}`}
          onClick={() => {
            const before = definition;
            const next = { ...(owner.branches as Record<string, unknown>) };
            delete next[lane.at(-1) as string];
            update((d) => setAt(d, [...ownerPath, 'branches'], next), ownerPath);
            notify(`Removed ${label.toLowerCase()}`, before);
          }}
        >
          <X size={14} aria-hidden="true" />
        </button>
      )}
    </h4>
  );
}

/** The lanes a step holds (then/else, each parallel branch, the loop's steps, the error path), drawn side by side. */
function Lanes({ path, step }: { path: Path; step: Step }) {
  const { kinds, update } = useStepOps();
  const kind = kinds.action(step.type);
  const props = kind?.parameters.properties ?? {};
  const lists = nestedLists(step, kind?.nested ?? []).map((l) =>
    l.path[0] === 'branches'
      ? { ...l, label: String(l.path[1]) }
      : l.path[0] === 'actions' || l.path[0] === 'onError'
        ? l
        : { ...l, label: props[l.path[0] as string]?.title ?? l.label },
  );
  const branches = step.branches && typeof step.branches === 'object' ? Object.keys(step.branches) : [];
  if (lists.length === 0) return null;
  const name = step.id ?? 'step';
  return (
    <div className={`lanes${lists.length > 1 ? ' many' : ''}`}>
      {lists.map((l) => {
        const lane = [...path, ...l.path];
        const steps = ((getAt(step, l.path) as unknown[] | undefined) ?? []).length;
        return (
          <section
            key={pathKey(l.path)}
            className={`lane${l.path[0] === 'onError' ? ' error-lane' : ''}`}
            aria-label={`${l.label} of ${name}`}
          >
            <LaneHead
              lane={lane}
              label={l.label}
              owner={step}
              ownerPath={path}
              steps={steps}
              removable={l.path[0] === 'branches' && branches.length > 2}
            />
            <LaneBody lane={lane} label={`${l.label} of ${name}`} />
          </section>
        );
      })}
      {kind?.nested?.includes('branches') && branches.length < 10 && (
        <button
          type="button"
          className="secondary small add-branch"
          onClick={() => {
            let n = branches.length + 1;
            while (branches.includes(`branch${n}`)) n++;
            update((d) => setAt(d, [...path, 'branches', `branch${n}`], []), path);
          }}
        >
          <Plus size={14} aria-hidden="true" /> Add a parallel branch
        </button>
      )}
    </div>
  );
}

/** A lane's steps, unless it is folded. */
function LaneBody({ lane, label }: { lane: Path; label: string }) {
  const { collapsed } = useStepOps();
  return collapsed.has(pathKey(lane)) ? null : <FlowList listPath={lane} label={label} />;
}

/** One step of a list: its card with a drag handle, then its lanes. */
function FlowItem({ sortId, path, step }: { sortId: string; path: Path; step: Step }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: sortId });
  const name = step.id ?? `step ${(path.at(-1) as number) + 1}`;
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      className="icon-button drag"
      aria-label={`Drag step ${name}`}
      {...attributes}
      {...listeners}
    >
      <GripVertical size={16} aria-hidden="true" />
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      className={`flow-item${isDragging ? ' dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <StepFlowCard path={path} step={step} handle={handle} />
      <Lanes path={path} step={step} />
    </li>
  );
}

/**
 * A vertical list of step cards (the automation's steps, or a lane's): a "+" between any two,
 * reordered by dragging the handle (dnd-kit: pointer, or Space and the arrow keys on the handle)
 * or with Alt+↑/↓ on a card.
 */
export function FlowList({ listPath, label }: { listPath: Path; label: string }) {
  const { definition, dispatch } = useStepOps();
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
    dispatch({ type: 'move', listPath, from, to });
    focusCard([...listPath, to]);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="flow-list" aria-label={label}>
          {list.map((step, i) => (
            <FlowRow key={ids[i]} sortId={ids[i]!} listPath={listPath} index={i} step={step} />
          ))}
          <li className="flow-end">
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

/** The "+" before a step, then the step. */
function FlowRow({ sortId, listPath, index, step }: { sortId: string; listPath: Path; index: number; step: Step }) {
  return (
    <>
      <li className="flow-gap">
        <AddHere listPath={listPath} index={index} label={`Add a step before ${step.id ?? `step ${index + 1}`}`} />
      </li>
      <FlowItem sortId={sortId} path={[...listPath, index]} step={step} />
    </>
  );
}

/** The flow view: the trigger's card, then the steps, each step's lanes drawn inside it. */
export function Flow() {
  return (
    <div className="flow" role="group" aria-label="Flow">
      <TriggerCard />
      <FlowList listPath={['actions']} label="Steps" />
    </div>
  );
}
