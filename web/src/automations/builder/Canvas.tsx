import type { ReactNode } from 'react';
import { useBuilder } from './context';
import { Flow } from './Flow';
import { setAt } from './model';
import { useStepOps } from './ops';
import { SidePanel } from './StepPanel';
import './flow.css';

/** The automation's name and description. */
function NameFields() {
  const { definition, update } = useStepOps();
  const { problemAt } = useBuilder();
  const nameError = problemAt(['name'], true);
  return (
    <>
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
    </>
  );
}

/**
 * The flow view (docs "Web app", "Automation builder"): the name and description, the flow of
 * collapsed cards with its lanes, the test run below it, and the side panel with the chosen
 * step's form (a sheet at the bottom of narrow screens).
 */
export function Canvas({ test }: { test: ReactNode }) {
  const { selected } = useStepOps();
  return (
    <div className={`flow-layout${selected !== null ? ' has-panel' : ''}`}>
      <div className="canvas">
        <NameFields />
        <Flow />
        {test}
      </div>
      <SidePanel />
    </div>
  );
}
