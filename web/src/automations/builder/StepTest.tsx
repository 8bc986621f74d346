import { useState } from 'react';
import { FlaskConical } from 'lucide-react';
import type { KindInfo } from './kinds';
import { useStepTests } from './step-tests';
import './step-test.css';

/**
 * A step card's test (docs "Web app", "Step tests"): "Test step" runs this one step with the
 * trigger sample and the outputs of the steps before it pinned; a step whose kind has side effects
 * asks first. The result (status, duration, output JSON, error) shows on the card; a succeeded
 * output becomes the step's sample in the data picker of later steps. Steps that hold other steps
 * (loop, parallel, approval) are tested through the steps inside them; a branch tests its conditions.
 */
export function StepTestBar({ stepId, kind }: { stepId: string | undefined; kind: KindInfo | undefined }) {
  const tests = useStepTests();
  const [confirming, setConfirming] = useState(false);
  if (!kind || !stepId || (kind.nested?.length && kind.type !== 'branch')) return null;
  const state = tests.states[stepId];
  const result = state?.result;
  const start = () => {
    setConfirming(false);
    tests.run(stepId);
  };
  return (
    <div className="step-test">
      <div className="row">
        <button
          type="button"
          className="secondary small"
          disabled={tests.unavailable !== null || state?.running}
          title={tests.unavailable ?? 'Run only this step, with the samples of the trigger and the steps before it'}
          aria-label={`Test step ${stepId}`}
          onClick={() => (kind.sideEffects ? setConfirming(true) : start())}
        >
          <FlaskConical size={14} aria-hidden="true" /> {state?.running ? 'Testing…' : 'Test step'}
        </button>
        {kind.sideEffects && <span className="muted small">Has side effects: a test does it for real.</span>}
      </div>
      {confirming && (
        <div className="step-test-confirm" role="alertdialog" aria-label={`Confirm the test of ${stepId}`}>
          <p>
            Testing <strong>{stepId}</strong> will {kind.title.charAt(0).toLowerCase() + kind.title.slice(1)} for real. Run it?
          </p>
          <div className="row">
            <button type="button" className="small" onClick={start} autoFocus>
              Run it
            </button>
            <button type="button" className="secondary small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {state?.error && (
        <p className="error" role="alert" aria-label={`Test error of ${stepId}`}>
          {state.error}
        </p>
      )}
      {result && !state?.running && (
        <div className={`step-test-result ${result.status}`} role="status" aria-label={`Test result of ${stepId}`}>
          <p className="row">
            <span className={`badge badge-${result.status}`}>{result.status === 'succeeded' ? 'Succeeded' : 'Failed'}</span>
            {result.durationMs !== undefined && <span className="muted small">{result.durationMs} ms</span>}
            {result.sideEffects && <span className="pill">Side effects: done for real</span>}
          </p>
          {result.error && (
            <p className="error">
              {result.error.code}: {result.error.message}
            </p>
          )}
          {result.status === 'succeeded' && (
            <>
              <pre className="code" tabIndex={0} aria-label={`Output of ${stepId}`}>
                {JSON.stringify(result.output ?? null, null, 2)}
              </pre>
              <p className="muted small">Pinned: later steps offer this output in their data picker.</p>
            </>
          )}
        </div>
      )}
    </div>
  );
}
