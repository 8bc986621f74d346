import { useState } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import type { Run } from '../types';
import { CodeEditor } from './CodeEditor';

/**
 * A test run of the saved version with the builder's trigger sample (`samples.ts`
 * `triggerSample`: a run's trigger variables when there is one, else values shaped for the
 * trigger kind). The same sample is the trigger of the step tests. The result lists each step's
 * status and output.
 */
export function TestRun({
  automationId,
  payload,
  onPayload,
  fromRun,
}: {
  automationId: string;
  payload: string;
  onPayload(text: string): void;
  fromRun?: string;
}) {
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function test() {
    setError(null);
    try {
      const body = JSON.parse(payload) as Record<string, unknown>;
      const res = unwrap(
        await api.POST('/api/v1/automations/{automationId}/test', { params: { path: { automationId } }, body: { payload: body } }),
      );
      setRun(res.item);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : (e as Error).message);
    }
  }
  return (
    <div className="test-run">
      <h2>Test run</h2>
      <p className="muted small">
        Runs the saved version once as a test, with this trigger sample; “Test step” on a card runs one step with it.{' '}
        {fromRun ? `The sample is the trigger of run ${fromRun.slice(0, 8)}.` : 'The sample is shaped for the trigger kind.'}
      </p>
      <CodeEditor label="Sample trigger payload (JSON)" language="json" value={payload} onChange={onPayload} className="small-editor" />
      <button type="button" onClick={() => void test()}>
        Run test
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
