import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, Copy, Eye, EyeOff, GripVertical, Plus, Trash2, X } from 'lucide-react';
import { fieldId } from './context';
import { Field } from './Fields';
import { KindIcon } from './icons';
import {
  copyStep,
  formatPath,
  getAt,
  insertStep,
  moveStep,
  nestedLists,
  removeStep,
  setAt,
  startsWith,
  type Path,
  type Step,
} from './model';
import { focusCard, pathKey, useStepOps } from './ops';
import { StepList } from './StepList';
import { useStepTests } from './step-tests';
import { StepTestBar } from './StepTest';
import { summarize } from './summary';

/** Fields every action has that the card edits itself (header, nested lists) rather than in its form. */
const OWN = new Set(['id', 'type', 'disabled', 'onError']);

/** The error path choice of a step: stop the run, go on, or run error steps. */
function OnErrorField({ path, step }: { path: Path; step: Step }) {
  const { update } = useStepOps();
  const mode = step.onError === 'continue' ? 'continue' : step.onError && typeof step.onError === 'object' ? 'then' : 'fail';
  const id = fieldId([...path, 'onError']);
  return (
    <div className="field">
      <label htmlFor={id}>When this step fails</label>
      <select
        id={id}
        value={mode}
        onChange={(e) => {
          const v = e.target.value;
          update((d) => setAt(d, [...path, 'onError'], v === 'fail' ? undefined : v === 'continue' ? 'continue' : { then: [] }));
        }}
      >
        <option value="fail">Stop the run (fail)</option>
        <option value="continue">Continue with the next step</option>
        <option value="then">Run error steps, then continue</option>
      </select>
    </div>
  );
}

/**
 * One action as a card: a header with the drag handle, the kind's icon and title, the step id
 * (editable), a one-line summary and a problem badge; move up/down, duplicate, disable and delete
 * (with Undo); its form when open; and the step lists it holds (branch, loop, approval, parallel
 * branches, error path).
 */
export function StepCard({ sortId, path, step }: { sortId: string; path: Path; step: Step }) {
  const ops = useStepOps();
  const { definition, kinds, update, notify, expanded, toggle, problems, touch } = ops;
  const kind = kinds.action(step.type);
  const highlighted = useStepTests().highlight === step.id;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: sortId });
  const listPath = path.slice(0, -1);
  const index = path.at(-1) as number;
  const siblings = (getAt(definition, listPath) as Step[] | undefined) ?? [];
  const open = expanded.has(pathKey(path));
  const mine = problems.filter((p) => startsWith(p.path, path));
  const props = kind?.parameters.properties ?? {};
  const common = ops.kinds.catalogue.commonActionParameters.properties ?? {};
  const loose = mine.filter((p) => {
    const next = p.path[path.length];
    return (
      p.path.length === path.length ||
      (typeof next === 'string' && !(next in props) && !(next in common) && !OWN.has(next) && !(kind?.nested ?? []).includes(next))
    );
  });
  const name = step.id ?? `step ${index + 1}`;
  const set = (k: string, v: unknown) => {
    touch(path);
    update((d) => setAt(d, [...path, k], v));
  };
  const move = (to: number) => {
    update((d) => moveStep(d, listPath, index, to));
    focusCard([...listPath, to]);
  };
  const remove = () => {
    const before = definition;
    update((d) => removeStep(d, path));
    notify(`Deleted step ${name}`, before);
  };
  const duplicate = () => {
    update((d) => insertStep(d, listPath, index + 1, copyStep(d, step, kinds.nestedOf)));
    focusCard([...listPath, index + 1]);
  };
  const lists = nestedLists(step, kind?.nested ?? []).map((l) =>
    l.path[0] === 'branches'
      ? { ...l, label: String(l.path[1]) }
      : l.path[0] === 'actions' || l.path[0] === 'onError'
        ? l
        : { ...l, label: props[l.path[0] as string]?.title ?? l.label },
  );
  const branches = step.branches && typeof step.branches === 'object' ? Object.keys(step.branches) : [];
  return (
    <article
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`step-card${step.disabled ? ' disabled' : ''}${isDragging ? ' dragging' : ''}${mine.length ? ' invalid' : ''}${highlighted ? ' highlighted' : ''}`}
      aria-label={`Step ${name}`}
      aria-current={highlighted ? 'step' : undefined}
    >
      <header
        className="card-head"
        tabIndex={0}
        data-card={pathKey(path)}
        aria-label={`${kind?.title ?? step.type} ${name}${step.disabled ? ' (disabled)' : ''}. Alt+Up or Alt+Down moves it.`}
        onKeyDown={(e) => {
          if (e.target !== e.currentTarget) return;
          if (e.altKey && e.key === 'ArrowUp' && index > 0) {
            e.preventDefault();
            move(index - 1);
          } else if (e.altKey && e.key === 'ArrowDown' && index < siblings.length - 1) {
            e.preventDefault();
            move(index + 1);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            toggle(path);
          } else if (e.key === 'Delete') {
            e.preventDefault();
            remove();
          }
        }}
      >
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
        <KindIcon name={kind?.icon} />
        <div className="card-title">
          <div className="title-row">
            <span className="kind-title">{kind?.title ?? `Unknown kind ${step.type}`}</span>
            <input
              className="step-id mono"
              aria-label={`Step id of ${name}`}
              value={step.id ?? ''}
              spellCheck={false}
              onChange={(e) => set('id', e.target.value === '' ? undefined : e.target.value)}
            />
            {step.disabled && <span className="pill">Disabled</span>}
            {mine.length > 0 && (
              <span className="badge error" aria-label={`${mine.length} problem${mine.length > 1 ? 's' : ''}`}>
                {mine.length}
              </span>
            )}
          </div>
          <p className="summary">{summarize(kind, step)}</p>
        </div>
        <div className="card-tools">
          <button
            type="button"
            className="icon-button"
            aria-expanded={open}
            aria-label={`${open ? 'Close' : 'Edit'} step ${name}`}
            onClick={() => toggle(path)}
          >
            {open ? <ChevronDown size={16} aria-hidden="true" /> : <ChevronRight size={16} aria-hidden="true" />}
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`Move step ${name} up`}
            disabled={index === 0}
            onClick={() => move(index - 1)}
          >
            <ArrowUp size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`Move step ${name} down`}
            disabled={index === siblings.length - 1}
            onClick={() => move(index + 1)}
          >
            <ArrowDown size={16} aria-hidden="true" />
          </button>
          <button type="button" className="icon-button" aria-label={`Duplicate step ${name}`} onClick={duplicate}>
            <Copy size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`${step.disabled ? 'Enable' : 'Disable'} step ${name}`}
            onClick={() => set('disabled', step.disabled ? undefined : true)}
          >
            {step.disabled ? <Eye size={16} aria-hidden="true" /> : <EyeOff size={16} aria-hidden="true" />}
          </button>
          <button type="button" className="icon-button danger" aria-label={`Delete step ${name}`} onClick={remove}>
            <Trash2 size={16} aria-hidden="true" />
          </button>
        </div>
      </header>
      <StepTestBar stepId={step.id} kind={kind} />
      {open && (
        <div className="card-body">
          {loose.map((p) => (
            <p key={formatPath(p.path)} className="field-error" role="alert">
              {p.message}
            </p>
          ))}
          {Object.entries(props).map(([k, s]) =>
            OWN.has(k) || s['x-editor'] === 'steps' || kind?.nested?.includes(k) ? null : (
              <Field
                key={k}
                name={k}
                schema={s}
                value={step[k]}
                onChange={(v) => set(k, v)}
                path={[...path, k]}
                required={kind?.parameters.required?.includes(k)}
                siblings={step}
              />
            ),
          )}
          <details className="step-settings">
            <summary>Settings: name, retries, timeout, errors</summary>
            {Object.entries(common).map(([k, s]) =>
              OWN.has(k) || k in props ? null : (
                <Field key={k} name={k} schema={s} value={step[k]} onChange={(v) => set(k, v)} path={[...path, k]} siblings={step} />
              ),
            )}
            <OnErrorField path={path} step={step} />
          </details>
        </div>
      )}
      {lists.length > 0 && (
        <div className="nested">
          {lists.map((l) => (
            <section key={l.path.join('.')} className="nested-list" aria-label={`${l.label} of ${name}`}>
              <h4>
                {l.label}
                {l.path[0] === 'branches' && branches.length > 2 && (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove ${l.label.toLowerCase()} of ${name}`}
                    onClick={() => {
                      const before = definition;
                      const next = { ...(step.branches as Record<string, unknown>) };
                      delete next[l.path[1] as string];
                      set('branches', next);
                      notify(`Removed ${l.label.toLowerCase()}`, before);
                    }}
                  >
                    <X size={14} aria-hidden="true" />
                  </button>
                )}
              </h4>
              <StepList listPath={[...path, ...l.path]} label={`${l.label} of ${name}`} />
            </section>
          ))}
          {kind?.nested?.includes('branches') && branches.length < 10 && (
            <button
              type="button"
              className="secondary small"
              onClick={() => {
                let n = branches.length + 1;
                while (branches.includes(`branch${n}`)) n++;
                set('branches', { ...(step.branches as Record<string, unknown>), [`branch${n}`]: [] });
              }}
            >
              <Plus size={14} aria-hidden="true" /> Add a parallel branch
            </button>
          )}
        </div>
      )}
    </article>
  );
}
