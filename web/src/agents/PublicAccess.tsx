import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { publicAgentQuery, usePublicPageChanges, type PublicPreferences } from './api';
import { AGENT_READ_ONLY_REASON } from './types';

/** The preferences a change sends: every key optional. */
type Preferences = PublicPreferences;

/**
 * The agent's public page: on or off, its link, and how it looks (mode, theme, branding, knowledge
 * names). `on` is the agent's `publicAccess` (the page itself is read only when it is on).
 */
export function PublicAccess({ agentId, on: enabled, readOnly }: { agentId: string; on: boolean; readOnly: boolean }) {
  const page = useQuery(publicAgentQuery(agentId, enabled));
  const { toggle, prefer } = usePublicPageChanges(agentId);
  // What is being saved shows at once (the control flips in the same event) until the service's answer is read back.
  const [switching, setSwitching] = useState<boolean | null>(null);
  const [preferring, setPreferring] = useState<Preferences>({});
  const prefs = { ...(page.data?.preferences ?? {}), ...preferring };
  // A page read back as none (turned off elsewhere since the agent was read) counts as off.
  const on = switching ?? (enabled && page.data !== null);
  const setOn = (value: boolean) => {
    setSwitching(value);
    toggle.mutate(value, { onSettled: () => setSwitching(null) });
  };
  const setPreference = (change: Preferences) => {
    setPreferring({ ...preferring, ...change });
    prefer.mutate(change, { onSettled: () => setPreferring({}) });
  };
  const failed = toggle.error ?? prefer.error ?? page.error;
  return (
    <section aria-labelledby="public-title">
      <h2 id="public-title">Public page</h2>
      <fieldset
        disabled={readOnly || toggle.isPending || prefer.isPending || page.isPending}
        aria-describedby={readOnly ? AGENT_READ_ONLY_REASON : undefined}
      >
        <legend className="visually-hidden">Public page settings</legend>
        <label className="check">
          <input type="checkbox" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} />
          Anyone with the link can use this agent
        </label>
        {page.data && (
          <>
            <p>
              <a href={page.data.url} target="_blank" rel="noopener noreferrer">
                {page.data.url}
              </a>
            </p>
            <div className="pair">
              <label>
                Mode
                <select
                  value={String(prefs.mode ?? 'template')}
                  onChange={(e) => setPreference({ mode: e.currentTarget.value as Preferences['mode'] })}
                >
                  <option value="template">Commands (template)</option>
                  <option value="chatbot">Chat</option>
                </select>
              </label>
              <label>
                Theme
                <select
                  value={String(prefs.theme ?? 'auto')}
                  onChange={(e) => setPreference({ theme: e.currentTarget.value as Preferences['theme'] })}
                >
                  <option value="auto">Follow the system</option>
                  <option value="light">Light</option>
                  <option value="dark">Dark</option>
                </select>
              </label>
            </div>
            <label className="check">
              <input
                type="checkbox"
                checked={prefs.hideBranding === true}
                onChange={(e) => setPreference({ hideBranding: e.currentTarget.checked })}
              />
              Hide the Taskspace branding
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={prefs.canCopyKnowledge === true}
                onChange={(e) => setPreference({ canCopyKnowledge: e.currentTarget.checked })}
              />
              Show the names of its knowledge
            </label>
          </>
        )}
      </fieldset>
      {failed && (
        <p role="alert" className="error">
          {errorMessage(failed)}
        </p>
      )}
    </section>
  );
}
