import { ItemTable } from '../components/ItemTable';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../api/client';
import { CopyField } from '../components/CopyButton';
import { useMe } from '../profile/api';
import { deliveriesQuery, subscriptionsQuery, useDeleteWebhook, useRegisterWebhook, useUnsubscribe, webhooksQuery } from './api';
import { webhookRefusal } from '../components/permissions';

const EVENTS = [
  'task.due',
  'task.assigned',
  'comment.created',
  'project.created',
  'project.assigned',
  'project.joined',
  'automation.failed',
  'approval.requested',
] as const;

function useWebhooks() {
  return useQuery(webhooksQuery());
}

/** Register a signed webhook; the secret is shown once, right here. An account whose plan has no webhooks reads why. */
function Register() {
  const refusal = webhookRefusal(useMe().data?.item);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<(typeof EVENTS)[number][]>(['task.assigned']);
  const [secret, setSecret] = useState<string | null>(null);
  const register = useRegisterWebhook();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    register.mutate(
      { targetUrl: url, events },
      {
        onSuccess: (res) => {
          setSecret(res.secret);
          setUrl('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="card wide" aria-labelledby="register-title">
      <h2 id="register-title">Register a webhook</h2>
      <label>
        Target URL
        <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/hooks/taskspace" />
      </label>
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev} className="check">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))}
            />
            {ev}
          </label>
        ))}
      </fieldset>
      {register.error && (
        <p role="alert" className="error">
          {register.error instanceof ApiError ? register.error.message : 'Could not register'}
        </p>
      )}
      {secret && (
        <div role="status" className="secret stack">
          <span>Signing secret (shown once — store it now):</span>
          <CopyField value={secret} label="Copy the signing secret" />
        </div>
      )}
      {refusal && (
        <p className="help permission-note" id="register-refusal">
          {refusal}
        </p>
      )}
      <button
        type="submit"
        disabled={register.isPending || events.length === 0 || refusal !== null}
        title={refusal ?? undefined}
        aria-describedby={refusal ? 'register-refusal' : undefined}
      >
        Register
      </button>
    </form>
  );
}

/**
 * Legacy (deprecated, unsigned) subscriptions of the account: listed so they can be found, moved to
 * a signed registration above and unsubscribed. New ones are made only through the API.
 */
function LegacySubscriptions() {
  const subscriptions = useQuery(subscriptionsQuery());
  const unsubscribe = useUnsubscribe();
  if (!subscriptions.data?.length) return null;
  return (
    <>
      <h2>Legacy subscriptions (deprecated)</h2>
      <p className="muted small">
        Unsigned deliveries of one event each. Register the same URL as a signed webhook above, then unsubscribe.
      </p>
      <ItemTable
        items={subscriptions.data}
        empty=""
        columns={['Target', 'Event', 'Since', 'Actions']}
        row={(s) => (
          <tr key={s.hookId}>
            <td>{s.targetUrl}</td>
            <td>{s.triggerType}</td>
            <td>{new Date(s.createdAt).toLocaleDateString()}</td>
            <td>
              <button
                type="button"
                className="secondary"
                onClick={() => unsubscribe.mutate(s.hookId)}
                aria-label={`Unsubscribe ${s.targetUrl} from ${s.triggerType}`}
              >
                Unsubscribe
              </button>
            </td>
          </tr>
        )}
      />
      {unsubscribe.isError && (
        <p role="alert" className="error">
          {errorMessage(unsubscribe.error)}
        </p>
      )}
    </>
  );
}

/** Signed webhook registrations of the signed-in account, with their delivery logs, and any legacy subscriptions. */
export function Webhooks() {
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <Register />
      <h2>Registrations</h2>
      <ItemTable
        items={webhooks.data}
        empty="No webhooks yet."
        columns={['Target', 'Events', 'Actions']}
        row={(w) => (
          <tr key={w.id}>
            <td>
              <Link to={`/settings/webhooks/${encodeURIComponent(w.id)}`}>{w.url}</Link>
            </td>
            <td>{w.events.join(', ')}</td>
            <td>
              <button type="button" className="secondary" onClick={() => remove.mutate(w.id)} aria-label={`Delete webhook ${w.url}`}>
                Delete
              </button>
            </td>
          </tr>
        )}
      />
      <LegacySubscriptions />
    </section>
  );
}

/** One registration's delivery log: each delivery's attempts, status codes and errors. */
export function WebhookDeliveries() {
  const { webhookId = '' } = useParams();
  const deliveries = useQuery(deliveriesQuery(webhookId));
  return (
    <section aria-labelledby="deliveries-title">
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      <h1 id="deliveries-title">Deliveries to {decodeURIComponent(webhookId)}</h1>
      {deliveries.isError && <p className="error">{deliveries.error.message}</p>}
      {deliveries.data?.length === 0 && <p className="muted">Nothing delivered yet.</p>}
      <ol className="timeline">
        {deliveries.data?.map((d) => (
          <li key={d.id} className="step">
            <div className="row">
              <strong>{d.event}</strong>
              <span className={`badge badge-${d.status}`}>{d.status}</span>
              <span className="muted small">
                {d.attemptCount} attempt{d.attemptCount === 1 ? '' : 's'} · {new Date(d.createdAt).toLocaleString()}
              </span>
            </div>
            <ul className="small">
              {d.attempts.map((a) => (
                <li key={a.number}>
                  #{a.number} {a.statusCode ?? '—'} in {a.durationMs} ms{a.error ? ` — ${a.error}` : ''}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
