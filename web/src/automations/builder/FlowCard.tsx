import type { KeyboardEvent, ReactNode } from 'react';
import { Zap } from 'lucide-react';
import { KindIcon } from './icons';
import { moveThroughFlow } from './flowKeys';
import { getAt, nestedLists, type Path, type Step } from './model';
import { cardBefore, focusCard, PANEL_ID, pathKey, useStepOps } from './ops';
import { useStepTests } from './step-tests';
import { summarize } from './summary';

/** "1 problem", "3 problems". */
export function problemsText(n: number): string {
  return `${n} problem${n === 1 ? '' : 's'}`;
}

/** Props of the card button both kinds of card share. */
interface CardButtonProps {
  cardKey: string;
  /** Its summary's DOM id (the button's description). */
  describedBy: string;
  selected: boolean;
  className: string;
  onOpen(): void;
  onKeyDown?(e: KeyboardEvent<HTMLButtonElement>): void;
  children: ReactNode;
}

/**
 * The card itself: a button that opens the side panel (Enter or a click), moved through with the
 * arrow keys. Its name is its text ("Step make: Create a task, 1 problem"; what only repeats it is
 * hidden from assistive technology), its summary its description.
 */
function CardButton({ cardKey, describedBy, selected, className, onOpen, onKeyDown, children }: CardButtonProps) {
  return (
    <button
      type="button"
      className={`card-button ${className}`}
      data-card={cardKey}
      aria-describedby={describedBy}
      aria-expanded={selected}
      aria-controls={selected ? PANEL_ID : undefined}
      onClick={onOpen}
      onKeyDown={onKeyDown}
    >
      {children}
    </button>
  );
}

/** The badges of a card: its problem count and the last step test's result. */
function Badges({ problems, test }: { problems: number; test?: 'succeeded' | 'failed' | undefined }) {
  return (
    <span className="card-badges">
      {problems > 0 && (
        <>
          <span className="visually-hidden">, {problemsText(problems)}</span>
          <span className="badge error" title={problemsText(problems)} aria-hidden="true">
            {problems}
          </span>
        </>
      )}
      {test && <span className={`badge badge-${test}`}>{test === 'succeeded' ? 'Test passed' : 'Test failed'}</span>}
    </span>
  );
}

/** The trigger as the flow's first card: its kind's icon and title, its summary and its problem count. */
export function TriggerCard() {
  const { definition, kinds, selected, select, problemCount } = useStepOps();
  const trigger = definition.trigger;
  const kind = trigger.type ? kinds.trigger(trigger.type) : undefined;
  const problems = problemCount('trigger');
  const title = kind?.title ?? 'Choose what starts this automation';
  return (
    <div className={`flow-card trigger-card${problems ? ' invalid' : ''}${selected === 'trigger' ? ' selected' : ''}`}>
      <CardButton
        cardKey="trigger"
        className=""
        describedBy="card-summary-trigger"
        selected={selected === 'trigger'}
        onOpen={() => select('trigger')}
        onKeyDown={(e) => moveThroughFlow(e, () => false)}
      >
        {kind ? <KindIcon name={kind.icon} /> : <Zap size={18} aria-hidden="true" className="kind-icon" />}
        <span className="card-title">
          <span className="title-row">
            <span className="pill" aria-hidden="true">
              Trigger
            </span>
            <span className="kind-title">
              <span className="visually-hidden">Trigger: </span>
              {title}
            </span>
          </span>
          <span className="summary" id="card-summary-trigger" aria-hidden="true">
            {kind ? summarize(kind, trigger) : 'A task event, a schedule, an inbound webhook or form…'}
          </span>
        </span>
        <Badges problems={problems} />
      </CardButton>
    </div>
  );
}

/**
 * One step as a collapsed card of the flow: its kind's icon and title, its id, its one-line
 * summary and its badges (problems, last test). Enter or a click opens it in the side panel;
 * arrows move through the flow, Alt+↑/↓ moves the step, Delete deletes it (with Undo).
 */
export function StepFlowCard({ path, step, handle }: { path: Path; step: Step; handle: ReactNode }) {
  const { definition, kinds, selected, select, problemCount, dispatch, notify, collapsed, toggleLane } = useStepOps();
  const kind = kinds.action(step.type);
  const tests = useStepTests();
  const listPath = path.slice(0, -1);
  const index = path.at(-1) as number;
  const count = ((getAt(definition, listPath) as Step[] | undefined) ?? []).length;
  const name = step.id ?? `step ${index + 1}`;
  const problems = problemCount(path);
  const summaryId = `card-summary-${pathKey(path).replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const isSelected = Array.isArray(selected) && pathKey(selected) === pathKey(path);
  const highlighted = tests.highlight === step.id;
  const result = step.id ? tests.states[step.id]?.result?.status : undefined;
  const test = result === 'succeeded' || result === 'failed' ? result : undefined;
  const lanes = nestedLists(step, kind?.nested ?? []).map((l) => pathKey([...path, ...l.path]));
  const unfold = () => {
    const folded = lanes.filter((k) => collapsed.has(k));
    if (folded.length === 0) return false;
    for (const k of folded)
      toggleLane(
        k.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        true,
      );
    return true;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (moveThroughFlow(e, unfold)) return;
    const to = e.key === 'ArrowUp' ? index - 1 : index + 1;
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown') && to >= 0 && to < count) {
      e.preventDefault();
      dispatch({ type: 'move', listPath, from: index, to });
      focusCard([...listPath, to]);
    } else if (e.key === 'Delete') {
      e.preventDefault();
      const before = definition;
      dispatch({ type: 'remove', path });
      notify(`Deleted step ${name}`, before);
      focusCard(cardBefore(path));
    }
  };
  const classes = ['flow-card', step.disabled && 'disabled', problems && 'invalid', isSelected && 'selected', highlighted && 'highlighted'];
  return (
    <div className={classes.filter(Boolean).join(' ')} aria-current={highlighted ? 'step' : undefined} data-step={step.id}>
      {handle}
      <CardButton
        cardKey={pathKey(path)}
        className=""
        describedBy={summaryId}
        selected={isSelected}
        onOpen={() => select(path)}
        onKeyDown={onKeyDown}
      >
        <KindIcon name={kind?.icon} />
        <span className="card-title">
          <span className="title-row">
            <span className="kind-title">
              <span className="visually-hidden">Step {name}: </span>
              {kind?.title ?? `Unknown kind ${step.type}`}
            </span>
            <code className="step-name" aria-hidden="true">
              {name}
            </code>
            {step.disabled && <span className="pill">Disabled</span>}
          </span>
          <span className="summary" id={summaryId} aria-hidden="true">
            {summarize(kind, step)}
          </span>
        </span>
        <Badges problems={problems} test={test} />
      </CardButton>
    </div>
  );
}
