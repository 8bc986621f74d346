import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { mailPreferencesQuery, useSaveMailPreferences } from './api';

type Kind = 'assignment' | 'mention' | 'approval' | 'failure';
type Mode = 'immediate' | 'digest' | 'off';

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'assignment', label: 'A task is assigned to me' },
  { kind: 'mention', label: 'I am @mentioned in a comment' },
  { kind: 'approval', label: 'An approval waits for me' },
  { kind: 'failure', label: 'An automation I own fails' },
];

const MODES: { mode: Mode; label: string }[] = [
  { mode: 'immediate', label: 'At once' },
  { mode: 'digest', label: 'In a digest' },
  { mode: 'off', label: 'Off' },
];

/**
 * My account → Email notifications (docs/email.md "Notifications"): per kind, a mail at once, a
 * digest, or nothing. Saved as soon as a choice changes. Mail goes out only when the service has
 * SMTP configured.
 */
export function MailPreferences() {
  const prefs = useQuery(mailPreferencesQuery());
  const save = useSaveMailPreferences();
  return (
    <section aria-labelledby="mail-title">
      <h2 id="mail-title">Email notifications</h2>
      <p className="muted small">Invitations and password resets always go out; choose for the rest.</p>
      {prefs.isError && (
        <p role="alert" className="error">
          {errorMessage(prefs.error)}
        </p>
      )}
      {prefs.data &&
        KINDS.map(({ kind, label }) => (
          <label key={kind}>
            {label}
            <select value={prefs.data[kind]} disabled={save.isPending} onChange={(e) => save.mutate({ [kind]: e.target.value as Mode })}>
              {MODES.map(({ mode, label: name }) => (
                <option key={mode} value={mode}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ))}
      {save.isError && (
        <p role="alert" className="error">
          {errorMessage(save.error)}
        </p>
      )}
      {save.isSuccess && <p role="status">Saved.</p>}
    </section>
  );
}
