import type { KeyboardEvent, ReactNode } from 'react';
import { ArrowDown, ArrowUp, Copy, Eye, EyeOff, Trash2, X, Zap } from 'lucide-react';
import { KindIcon } from './icons';
import { copyStep, getAt, setAt, type Path, type Step } from './model';
import { cardBefore, focusCard, PANEL_ID, useStepOps } from './ops';
import { StepForm, TriggerForm } from './StepForm';
import { StepTestBar } from './StepTest';

/** The panel's frame: its heading row (icon, title, tools, close) and its body; Escape closes it. */
function PanelFrame({ label, head, children }: { label: string; head: ReactNode; children: ReactNode }) {
  const { select } = useStepOps();
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // A picker or a confirmation inside takes its own Escape first.
    if (e.key !== 'Escape' || e.defaultPrevented || (e.target as HTMLElement).closest('[role="dialog"], [role="alertdialog"]')) return;
    e.preventDefault();
    select(null);
  };
  return (
    <section id={PANEL_ID} className="step-panel" tabIndex={-1} aria-label={label} onKeyDown={onKeyDown}>
      <header className="panel-head">
        {head}
        <button
          type="button"
          className="icon-button panel-close"
          aria-label={label === 'Trigger' ? 'Close the trigger' : `Close ${label.replace(/^Step/, 'step')}`}
          onClick={() => select(null)}
        >
          <X size={16} aria-hidden="true" />
        </button>
      </header>
      {children}
    </section>
  );
}

/** The step's tools in the panel head: move up/down, duplicate, disable, delete (with Undo). */
function StepTools({ path, step, name }: { path: Path; step: Step; name: string }) {
  const { definition, kinds, update, dispatch, notify, select } = useStepOps();
  const listPath = path.slice(0, -1);
  const index = path.at(-1) as number;
  const count = ((getAt(definition, listPath) as Step[] | undefined) ?? []).length;
  const move = (to: number) => dispatch({ type: 'move', listPath, from: index, to });
  return (
    <div className="card-tools">
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
        disabled={index === count - 1}
        onClick={() => move(index + 1)}
      >
        <ArrowDown size={16} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Duplicate step ${name}`}
        onClick={() => dispatch({ type: 'insert', listPath, index: index + 1, step: copyStep(definition, step, kinds.nestedOf) })}
      >
        <Copy size={16} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`${step.disabled ? 'Enable' : 'Disable'} step ${name}`}
        onClick={() => update((d) => setAt(d, [...path, 'disabled'], step.disabled ? undefined : true), path)}
      >
        {step.disabled ? <Eye size={16} aria-hidden="true" /> : <EyeOff size={16} aria-hidden="true" />}
      </button>
      <button
        type="button"
        className="icon-button danger"
        aria-label={`Delete step ${name}`}
        onClick={() => {
          const before = definition;
          select(null);
          dispatch({ type: 'remove', path });
          notify(`Deleted step ${name}`, before);
          focusCard(cardBefore(path));
        }}
      >
        <Trash2 size={16} aria-hidden="true" />
      </button>
    </div>
  );
}

/** The selected step in the side panel: its head (icon, title, editable id, tools), its test and its form. */
function StepPanel({ path, step }: { path: Path; step: Step }) {
  const { kinds, update } = useStepOps();
  const kind = kinds.action(step.type);
  const name = step.id ?? `step ${(path.at(-1) as number) + 1}`;
  const head = (
    <>
      <KindIcon name={kind?.icon} />
      <div className="card-title">
        <h2 className="kind-title">{kind?.title ?? `Unknown kind ${step.type}`}</h2>
        <input
          className="step-id mono"
          aria-label={`Step id of ${name}`}
          value={step.id ?? ''}
          spellCheck={false}
          onChange={(e) => update((d) => setAt(d, [...path, 'id'], e.target.value === '' ? undefined : e.target.value), path)}
        />
      </div>
      <StepTools path={path} step={step} name={name} />
    </>
  );
  return (
    <PanelFrame label={`Step ${name}`} head={head}>
      {step.disabled && <p className="muted small">Disabled: runs skip this step.</p>}
      <StepTestBar stepId={step.id} kind={kind} />
      <StepForm path={path} step={step} />
    </PanelFrame>
  );
}

/** The trigger in the side panel: its kind (changed through the picker) and its form. */
function TriggerPanel() {
  const { definition, kinds, pick } = useStepOps();
  const kind = definition.trigger.type ? kinds.trigger(definition.trigger.type) : undefined;
  const head = (
    <>
      {kind ? <KindIcon name={kind.icon} /> : <Zap size={18} aria-hidden="true" className="kind-icon" />}
      <div className="card-title">
        <h2 className="kind-title">{kind?.title ?? 'Choose what starts this automation'}</h2>
      </div>
      <button type="button" className={kind ? 'secondary small' : 'small'} onClick={() => pick('trigger')}>
        {kind ? 'Change trigger' : 'Choose a trigger'}
      </button>
    </>
  );
  return (
    <PanelFrame label="Trigger" head={head}>
      <TriggerForm />
    </PanelFrame>
  );
}

/**
 * The side panel (a sheet at the bottom on narrow screens): the form of the step or trigger chosen
 * in the flow, with its step test; a hint when nothing is chosen.
 */
export function SidePanel() {
  const { definition, selected } = useStepOps();
  if (selected === 'trigger') return <TriggerPanel />;
  const step = Array.isArray(selected) ? (getAt(definition, selected) as Step | undefined) : undefined;
  if (Array.isArray(selected) && step && typeof step === 'object')
    return <StepPanel key={selected.join('.')} path={selected} step={step} />;
  return (
    <div className="step-panel empty">
      <p className="muted">Choose the trigger or a step in the flow to edit it here.</p>
    </div>
  );
}
