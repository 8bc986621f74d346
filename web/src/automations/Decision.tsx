import { useState } from 'react';
import { errorMessage } from '../api/client';
import { useDecide } from './queries';

/**
 * The decision controls of a waiting approval: an optional comment, Approve and Reject, and the
 * refusal of the last attempt (`error`), if any.
 */
export function DecisionForm({
  pending,
  error,
  onDecide,
}: {
  pending: boolean;
  error: unknown;
  onDecide: (approve: boolean, comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  return (
    <div className="decision">
      <label>
        Comment (optional)
        <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </label>
      <div className="row">
        <button type="button" disabled={pending} onClick={() => onDecide(true, comment)}>
          Approve
        </button>
        <button type="button" className="secondary" disabled={pending} onClick={() => onDecide(false, comment)}>
          Reject
        </button>
      </div>
      {error ? (
        <p role="alert" className="error">
          {errorMessage(error)}
        </p>
      ) : null}
    </div>
  );
}

/** Approve or reject a waiting approval of a run, with an optional comment. */
export function Decision({ automationId, runId }: { automationId: string; runId: string }) {
  const decide = useDecide();
  return (
    <DecisionForm
      pending={decide.isPending}
      error={decide.error}
      onDecide={(approve, comment) => decide.mutate({ automationId, runId, approve, comment })}
    />
  );
}
