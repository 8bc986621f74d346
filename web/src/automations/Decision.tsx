import { useState } from 'react';
import { ApiError } from '../api/client';
import { useDecide } from './queries';

/** Approve or reject a waiting approval, with an optional comment. */
export function Decision({ automationId, runId }: { automationId: string; runId: string }) {
  const [comment, setComment] = useState('');
  const decide = useDecide();
  const error = decide.error instanceof ApiError ? decide.error.message : decide.error ? 'Could not record the decision' : null;
  return (
    <div className="decision">
      <label>
        Comment (optional)
        <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </label>
      <div className="row">
        <button type="button" disabled={decide.isPending} onClick={() => decide.mutate({ automationId, runId, approve: true, comment })}>
          Approve
        </button>
        <button type="button" className="secondary" disabled={decide.isPending} onClick={() => decide.mutate({ automationId, runId, approve: false, comment })}>
          Reject
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
