import { ChevronDown, ChevronRight, Zap } from 'lucide-react';
import { fieldId, useBuilder } from './context';
import { Field } from './Fields';
import { KindIcon } from './icons';
import { setAt, startsWith } from './model';
import { useStepOps } from './ops';
import { StepList } from './StepList';
import { summarize } from './summary';

/** The trigger as the first card: its kind (changed through the picker), summary and form. */
function TriggerCard({ onChange }: { onChange(): void }) {
  const { definition, kinds, update, expanded, toggle, problems, touch } = useStepOps();
  const { problemAt } = useBuilder();
  const trigger = definition.trigger;
  const kind = trigger.type ? kinds.trigger(trigger.type) : undefined;
  const open = expanded.has('trigger');
  const mine = problems.filter((p) => startsWith(p.path, ['trigger']));
  const loose = problemAt(['trigger'], false);
  return (
    <article className={`step-card trigger-card${mine.length ? ' invalid' : ''}`} aria-label="Trigger">
      <header
        className="card-head"
        tabIndex={0}
        data-card="trigger"
        onKeyDown={(e) => e.target === e.currentTarget && e.key === 'Enter' && toggle(['trigger'])}
      >
        {kind ? <KindIcon name={kind.icon} /> : <Zap size={18} aria-hidden="true" className="kind-icon" />}
        <div className="card-title">
          <div className="title-row">
            <span className="pill">Trigger</span>
            <span className="kind-title">{kind?.title ?? 'Choose what starts this automation'}</span>
            {mine.length > 0 && (
              <span className="badge error" aria-label={`${mine.length} problem${mine.length > 1 ? 's' : ''}`}>
                {mine.length}
              </span>
            )}
          </div>
          <p className="summary">{kind ? summarize(kind, trigger) : 'A task event, a schedule, an inbound webhook or form…'}</p>
        </div>
        <div className="card-tools">
          <button type="button" className={kind ? 'secondary small' : 'small'} onClick={onChange}>
            {kind ? 'Change trigger' : 'Choose a trigger'}
          </button>
          {kind && (
            <button
              type="button"
              className="icon-button"
              aria-expanded={open}
              aria-label={`${open ? 'Close' : 'Edit'} the trigger`}
              onClick={() => toggle(['trigger'])}
            >
              {open ? <ChevronDown size={16} aria-hidden="true" /> : <ChevronRight size={16} aria-hidden="true" />}
            </button>
          )}
        </div>
      </header>
      {loose && (
        <p className="field-error" role="alert" id={fieldId(['trigger'], '-error')}>
          {loose}
        </p>
      )}
      {kind && open && (
        <div className="card-body">
          {Object.entries(kind.parameters.properties ?? {}).map(([k, s]) =>
            k === 'type' ? null : (
              <Field
                key={k}
                name={k}
                schema={s}
                value={trigger[k]}
                onChange={(v) => {
                  touch(['trigger']);
                  update((d) => setAt(d, ['trigger', k], v));
                }}
                path={['trigger', k]}
                required={kind.parameters.required?.includes(k)}
                siblings={trigger}
              />
            ),
          )}
        </div>
      )}
    </article>
  );
}

/** The form view: the automation's name and description, the trigger card, then the steps. */
export function Canvas({ onChangeTrigger }: { onChangeTrigger(): void }) {
  const { definition, update } = useStepOps();
  const { problemAt } = useBuilder();
  const nameError = problemAt(['name'], true);
  return (
    <div className="canvas">
      <div className="field">
        <label htmlFor="automation-name">Name</label>
        <input
          id="automation-name"
          type="text"
          value={definition.name ?? ''}
          aria-invalid={nameError !== undefined || undefined}
          aria-describedby={nameError ? 'automation-name-error' : undefined}
          onChange={(e) => update((d) => ({ ...d, name: e.target.value }))}
        />
        {nameError && (
          <p id="automation-name-error" className="field-error" role="alert">
            {nameError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="automation-description">Description</label>
        <textarea
          id="automation-description"
          rows={2}
          value={definition.description ?? ''}
          onChange={(e) => update((d) => setAt(d, ['description'], e.target.value === '' ? undefined : e.target.value))}
        />
      </div>
      <div className="flow">
        <TriggerCard onChange={onChangeTrigger} />
        <StepList listPath={['actions']} label="Steps" />
      </div>
    </div>
  );
}
