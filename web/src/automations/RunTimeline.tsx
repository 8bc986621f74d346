import { Link, useParams } from 'react-router';
import { useRun } from './queries';
import { Decision } from './Decision';
import { StatusBadge } from './StatusBadge';
import type { Step } from './types';

function Json({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <pre className="code">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

function StepItem({ step }: { step: Step }) {
  return (
    <li className={`step step-${step.status}`}>
      <div className="row">
        <strong>{step.id}</strong>
        <span className="muted small">{step.type}</span>
        <span className={`badge badge-${step.status}`}>{step.status}</span>
        <span className="muted small">
          {step.attempts} attempt{step.attempts === 1 ? '' : 's'}
          {step.durationMs !== undefined ? ` · ${step.durationMs} ms` : ''}
        </span>
      </div>
      {step.error && (
        <p className="error">
          {step.error.code}: {step.error.message}
        </p>
      )}
      <Json label="Input" value={step.input} />
      <Json label="Output" value={step.output} />
    </li>
  );
}

/** A run's timeline: each step with input, output, error, attempts and duration, refreshed until final. */
export function RunTimeline() {
  const { automationId = '', runId = '' } = useParams();
  const run = useRun(automationId, runId);
  if (run.isError) return <p className="error">{run.error.message}</p>;
  const r = run.data;
  return (
    <section aria-labelledby="run-title">
      <p>
        <Link to={`/automations/${automationId}`}>← Automation</Link>
      </p>
      <h1 id="run-title">
        Run {runId.slice(0, 8)} {r && <StatusBadge status={r.status} />}
      </h1>
      {r && (
        <p className="muted">
          Trigger {r.trigger.type} · version {r.version} · created {new Date(r.createdAt).toLocaleString()}
        </p>
      )}
      {r?.error && (
        <p className="error" role="status">
          {r.error.code}: {r.error.message}
          {r.error.stepId ? ` (step ${r.error.stepId})` : ''}
        </p>
      )}
      {r?.status === 'waiting' && r.waitingFor?.kind === 'approval' && (
        <section aria-label="Decision">
          <h2>Waiting for approval ({r.waitingFor.stepId})</h2>
          <Decision automationId={automationId} runId={runId} />
        </section>
      )}
      <Json label="Trigger variables" value={r?.trigger.variables} />
      <ol className="timeline" aria-label="Steps">
        {r?.steps?.map((s) => (
          <StepItem key={s.id} step={s} />
        ))}
      </ol>
    </section>
  );
}
