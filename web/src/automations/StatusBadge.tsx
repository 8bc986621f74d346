import type { Run } from './types';

/** A run status as a labelled badge (colour is never the only signal). */
export function StatusBadge({ status }: { status: Run['status'] | 'never' }) {
  return <span className={`badge badge-${status}`}>{status === 'never' ? 'no runs yet' : status}</span>;
}
