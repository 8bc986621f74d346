import { useState } from 'react';
import { ApiError } from '../../api/client';
import { automationWrites } from '../api';
import type { Run } from '../types';
import { CodeEditor } from './CodeEditor';
import type { KindInfo } from './kinds';
import type { Definition } from './model';
import { PieceSample } from './PieceSample';

/**
 * A test run of the saved version with the builder's trigger sample (`samples.ts`
 * `triggerSample`: a real run's trigger variables of this kind when there is one, else the
 * template's declared sample, else the kind's example made the automation's own). The same sample is the trigger of the step tests. The result lists each step's
 * status and output.
 */
export function TestRun({
  automationId,
  payload,
  onPayload,
  fromRun,
  gap,
  pending,
  triggerKind,
  trigger,
}: {
  automationId: string;
  payload: string;
  onPayload(text: string): void;
  fromRun?: string;
  /** What the sample cannot stand for yet (a task the project lacks), said before the run. */
  gap?: string | undefined;
  /** The sample is still being made the automation's own: the run waits for it. */
  pending?: boolean;
  /** The draft's trigger and its kind: a piece trigger's sample can be loaded from its service. */
  triggerKind?: KindInfo | undefined;
  trigger?: Definition['trigger'] | undefined;
}) {
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function test() {
    setError(null);
    try {
      const body = JSON.parse(payload) as Record<string, unknown>;
      setRun(await automationWrites.testRun(automationId, body));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : (e as Error).message);
    }
  }
  return (
    <div className="test-run">
      <h2>Test run</h2>
      <p className="muted small">
        Runs the saved version once as a test, with this trigger sample; “Test step” in a step's panel runs that step with it.{' '}
        {fromRun
          ? `The sample is the trigger of run ${fromRun.slice(0, 8)}.`
          : "The sample is the trigger kind's example, with this workspace's project, task and members."}
      </p>
      {gap && (
        <p className="muted small" role="note">
          {gap}
        </p>
      )}
      <PieceSample kind={triggerKind} trigger={trigger} onPayload={onPayload} />
      <CodeEditor label="Sample trigger payload (JSON)" language="json" value={payload} onChange={onPayload} className="small-editor" />
      <button type="button" disabled={pending} onClick={() => void test()}>
        {pending ? 'Preparing the sample…' : 'Run test'}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {run && (
        <div aria-label="Test run result">
          <p>
            Status: <strong>{run.status}</strong>
          </p>
          <ol>
            {run.steps?.map((s) => (
              <li key={s.id}>
                {s.id}: {s.status}
                {s.error ? ` — ${s.error.message}` : ''}
                <pre className="code" tabIndex={0} aria-label={`Output of ${s.id}`}>
                  {JSON.stringify(s.output ?? null, null, 2)}
                </pre>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
