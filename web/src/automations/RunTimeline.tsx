import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { automationKeys } from '../api/keys';
import { useMe } from '../profile/api';
import { automationWrites } from './api';
import { approversSentence, can, mayDecideApproval, PermissionNote, useRoleIn } from '../components/permissions';
import { useAutomation, useRun } from './queries';
import { Decision } from './Decision';
import { StatusBadge } from './StatusBadge';
import type { Step } from './types';
import { useKinds } from './builder/kinds';

function Json({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <pre className="code" tabIndex={0} aria-label={label}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

function StepItem({ step }: { step: Step }) {
  const { automationId = '', runId = '' } = useParams();
  // The step's kind by its title ("Create a task"), its type until the catalogue has loaded.
  const kind = useKinds().data?.actions.find((k) => k.type === step.type)?.title ?? step.type;
  return (
    <li className={`step step-${step.status}`}>
      <div className="row">
        <strong>{step.id}</strong>
        <span className="muted small">{kind}</span>
        <span className={`badge badge-${step.status}`}>{step.status}</span>
        {step.status === 'failed' && (
          <Link
            to={`/automations/${automationId}/edit?step=${encodeURIComponent(step.id.split('.').pop()!)}&run=${runId}`}
            className="small"
          >
            Open step {step.id} in the builder
          </Link>
        )}
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

/**
 * Owners replay a failed or cancelled run, from its failed step or from the start, with the
 * version it ran or with the automation's current version (body `version`);
 * the new run opens and shows the version it used. Replaying from the start first warns that the
 * steps that succeeded run again (a task they made is made twice) and asks to confirm.
 */
function Replay({
  automationId,
  runId,
  ranVersion,
  currentVersion,
}: {
  automationId: string;
  runId: string;
  ranVersion: number;
  currentVersion: number | undefined;
}) {
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [version, setVersion] = useState<'original' | 'current'>('original');
  const [confirmStart, setConfirmStart] = useState(false);
  const replay = useMutation({
    mutationFn: (from: 'failed-step' | 'start') => automationWrites.replay(automationId, runId, { from, version }),
    onSuccess: async (item) => {
      await queries.invalidateQueries();
      navigate(`/automations/${automationId}/runs/${item.id}`);
    },
  });
  return (
    <div role="group" aria-label="Replay" className="replay">
      <fieldset className="replay-version">
        <legend className="small">Replay with</legend>
        <label className="check">
          <input
            type="radio"
            name="replay-version"
            value="original"
            checked={version === 'original'}
            onChange={() => setVersion('original')}
          />{' '}
          the version it ran (v{ranVersion})
        </label>
        <label className="check">
          <input
            type="radio"
            name="replay-version"
            value="current"
            checked={version === 'current'}
            onChange={() => setVersion('current')}
          />{' '}
          the current version
          {currentVersion !== undefined ? ` (v${currentVersion})` : ''}
        </label>
      </fieldset>
      <div className="row">
        <button type="button" disabled={replay.isPending} onClick={() => replay.mutate('failed-step')}>
          Replay from the failed step
        </button>
        <button type="button" className="secondary" disabled={replay.isPending} onClick={() => setConfirmStart(true)}>
          Replay from the start
        </button>
      </div>
      {confirmStart && (
        <div role="alert" className="alert">
          <p>
            Replaying from the start runs every step again, also those that succeeded: what they did (a task made, a message sent, a call
            made) happens a second time.
          </p>
          <div className="row">
            <button type="button" className="danger" disabled={replay.isPending} onClick={() => replay.mutate('start')}>
              Replay every step
            </button>
            <button type="button" className="secondary" onClick={() => setConfirmStart(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {replay.error && (
        <p role="alert" className="error">
          {replay.error instanceof ApiError ? replay.error.message : 'Could not replay'}
        </p>
      )}
    </div>
  );
}

/** Owners cancel a run that has not finished (queued and waiting runs at once, an executing one at its next step). */
function Cancel({ automationId, runId }: { automationId: string; runId: string }) {
  const queries = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => automationWrites.cancel(automationId, runId),
    onSettled: () => queries.invalidateQueries({ queryKey: automationKeys.run(runId) }),
  });
  return (
    <div className="row">
      <button type="button" className="secondary" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
        Cancel run
      </button>
      {cancel.error && (
        <p role="alert" className="error">
          {cancel.error instanceof ApiError ? cancel.error.message : 'Could not cancel'}
        </p>
      )}
    </div>
  );
}

/** The approvers an approval step's recorded input names (handles without `@`; empty: none named). */
function approversOf(input: unknown): string[] {
  if (typeof input !== 'object' || input === null || !('approvers' in input) || !Array.isArray(input.approvers)) return [];
  return input.approvers.filter((h): h is string => typeof h === 'string');
}

/** A run's timeline: each step with input, output, error, attempts and duration, refreshed until final. */
export function RunTimeline() {
  const { automationId = '', runId = '' } = useParams();
  const run = useRun(automationId, runId);
  const automation = useAutomation(automationId);
  const role = useRoleIn(automation.data?.workspaceId);
  const owner = can(role, 'manageRuns');
  const me = useMe();
  const kinds = useKinds();
  if (run.isError) return <p className="error">{run.error.message}</p>;
  const r = run.data;
  // Who may decide the approval the run waits on: the handles its step names, else Participants and above.
  const waitingStep = r?.waitingFor?.kind === 'approval' ? r.steps?.find((s) => s.id === r.waitingFor?.stepId) : undefined;
  const approvers = approversOf(waitingStep?.input);
  const mayDecide = mayDecideApproval(approvers, me.data?.item.handle, role);
  const known = approvers.length > 0 ? me.data !== undefined : role !== undefined;
  const unfinished = r !== undefined && (r.status === 'queued' || r.status === 'running' || r.status === 'waiting');
  const replayable = r?.status === 'failed' || r?.status === 'cancelled';
  return (
    <section aria-labelledby="run-title">
      <p>
        <Link to={`/automations/${automationId}`}>← {automation.data?.name ?? 'Automation'}</Link>
      </p>
      <h1 id="run-title">
        Run {runId.slice(0, 8)} {r && <StatusBadge status={r.status} />}
      </h1>
      {r && (
        <p className="muted">
          {kinds.data?.triggers.find((k) => k.type === r.trigger.type)?.title ?? r.trigger.type} · version {r.version}
          {automation.data ? (automation.data.version === r.version ? ' (current)' : ` (current is v${automation.data.version})`) : ''} ·
          created {new Date(r.createdAt).toLocaleString()}
          {r.replayOf && (
            <>
              {' '}
              · replays <Link to={`/automations/${automationId}/runs/${r.replayOf}`}>run {r.replayOf.slice(0, 8)}</Link>
            </>
          )}
        </p>
      )}
      {owner && r && replayable && (
        <Replay automationId={automationId} runId={runId} ranVersion={r.version} currentVersion={automation.data?.version} />
      )}
      {owner && r && unfinished && <Cancel automationId={automationId} runId={runId} />}
      {(unfinished || replayable) && <PermissionNote role={role} action="manageRuns" />}
      {r?.error && (
        <p className="error" role="status">
          {r.error.code}: {r.error.message}
          {r.error.stepId ? ` (step ${r.error.stepId})` : ''}
        </p>
      )}
      {r?.status === 'waiting' && r.waitingFor?.kind === 'approval' && (
        <section aria-label="Decision">
          <h2>Waiting for approval ({r.waitingFor.stepId})</h2>
          {approvers.length > 0 && <p className="muted small">Approvers: {approvers.map((h) => `@${h}`).join(', ')}</p>}
          {mayDecide ? (
            <Decision automationId={automationId} runId={runId} />
          ) : (
            known && <p className="help permission-note">{approversSentence(approvers)}</p>
          )}
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
