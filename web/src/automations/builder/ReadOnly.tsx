import { Link } from 'react-router';
import { permissionReason } from '../../components/permissions';
import type { Automation } from '../types';

/**
 * The builder's page for someone who may not change automations (below Owner): the automation
 * read-only (its trigger, its steps and the whole definition as JSON) with why it cannot be
 * edited, instead of a builder whose Save would fail. `automation` is absent on the new-automation page.
 */
export function ReadOnlyAutomation({ automation, role }: { automation: Automation | undefined; role: string | undefined }) {
  return (
    <section aria-labelledby="builder-title" className="builder">
      <h1 id="builder-title">{automation ? automation.name : 'New automation'}</h1>
      <p role="note" className="draft-note">
        {automation ? 'You can view this automation but not edit it. ' : 'You cannot create automations here. '}
        {permissionReason(role, 'manageAutomations')}
      </p>
      {automation && (
        <>
          <p>
            <Link to={`/automations/${automation.id}`}>Back to {automation.name}</Link>
          </p>
          <p>
            Trigger <code>{automation.trigger.type}</code>
          </p>
          <h2>Steps</h2>
          {automation.actions.length === 0 ? (
            <p className="muted">No steps.</p>
          ) : (
            <ol aria-label="Steps">
              {automation.actions.map((step, i) => (
                <li key={typeof step.id === 'string' ? step.id : i}>
                  <strong>{String(step.id ?? '')}</strong> <span className="muted small">{String(step.type ?? '')}</span>
                </li>
              ))}
            </ol>
          )}
          <h2>Definition</h2>
          <pre className="code" tabIndex={0} aria-label="Definition (JSON)">
            {JSON.stringify(
              { name: automation.name, description: automation.description, trigger: automation.trigger, actions: automation.actions },
              null,
              2,
            )}
          </pre>
        </>
      )}
    </section>
  );
}
