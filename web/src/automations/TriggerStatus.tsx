import { useQuery } from '@tanstack/react-query';
import { triggerStatusQuery } from './api';

/**
 * Whether an automation's piece trigger is registered with its outside service
 * (docs/integrations.md "Triggers"): nothing for built-in triggers or a registered one; a
 * waiting note while the server registers it; an alert with the service's answer when the
 * registration (or the last poll) failed, so that a webhook the service never took is seen.
 */
export function TriggerStatus({ automationId }: { automationId: string }) {
  const status = useQuery(triggerStatusQuery(automationId)).data;
  if (!status) return null;
  if (status.state === 'pending') return <p role="status">Registering the trigger with its service…</p>;
  if (status.state !== 'failed' || !status.error) return null;
  const what = status.error.op === 'poll' ? 'The last check for new items failed' : 'The trigger is not registered with its service';
  return (
    <div role="alert" className="error">
      <p>
        {what}: {status.error.message}
      </p>
      <p className="muted">
        Fix the connection or the service, then disable and enable the automation (or save it) to try again; the server also retries on its
        own.
      </p>
    </div>
  );
}
