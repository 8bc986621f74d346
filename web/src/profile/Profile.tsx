import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../api/client';
import { useWorkspaces } from '../workspaces/api';
import { useMe, useSaveDisplayName } from './api';
import { Avatar } from '../components/Avatar';
import { roleDescription } from '../components/roles';
import { useToast } from '../components/Toasts';
import { ChangePassword } from '../settings/Account';
import { useWorkspaceContext } from '../workspaces/context';
import '../workspaces/workspaces.css';

/** Longest display name the service takes (docs/api.md "Workspaces, folders and the caller"). */
const MAX_DISPLAY_NAME = 100;

/**
 * Profile (the user menu's link; docs "Web app", "Profile"): who the person is (avatar with their
 * initials, display name, handle), changing the display name and the password, and their
 * workspaces with their role in each and what it allows.
 */
export function Profile() {
  const me = useMe();
  const item = me.data?.item;
  return (
    <section aria-labelledby="profile-title">
      <div className="page-header profile-header">
        {item && <Avatar name={item.displayName || item.handle} size="lg" />}
        <div>
          <h1 id="profile-title">Profile</h1>
          {item && (
            <p className="muted">
              <span>{item.displayName}</span> · <span>@{item.handle}</span>
            </p>
          )}
        </div>
      </div>
      <div className="stack-lg">
        {item && <DisplayName key={item.displayName} current={item.displayName} handle={item.handle} />}
        <ChangePassword />
        <MyWorkspaces />
      </div>
    </section>
  );
}

function DisplayName({ current, handle }: { current: string; handle: string }) {
  const [name, setName] = useState(current);
  const toast = useToast();
  // Member lists and assignees show the name too: the hook refreshes them.
  const save = useSaveDisplayName();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== '' && name.trim() !== current)
      save.mutate(name.trim(), { onSuccess: (item) => toast({ message: `Your display name is now “${item.displayName}”.` }) });
  };
  return (
    <form className="card wide" onSubmit={submit} aria-labelledby="display-name-title">
      <h2 id="display-name-title">Name</h2>
      <label>
        Display name
        <input required maxLength={MAX_DISPLAY_NAME} autoComplete="name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
      </label>
      <p className="help">
        Shown to your teammates beside your handle, @{handle}. The handle is how people mention, assign and invite you; it does not change.
      </p>
      {save.isError && (
        <p role="alert" className="error">
          {errorMessage(save.error)}
        </p>
      )}
      <div className="btn-row">
        <button type="submit" disabled={save.isPending || name.trim() === '' || name.trim() === current}>
          Save name
        </button>
      </div>
    </form>
  );
}

/** The person's workspaces with their role in each; opening one switches the sidebar to it. */
function MyWorkspaces() {
  const workspaces = useWorkspaces();
  const { workspaceId, chooseWorkspace } = useWorkspaceContext();
  return (
    <section className="card wide" aria-labelledby="my-workspaces-title">
      <h2 id="my-workspaces-title">Your workspaces</h2>
      {workspaces.isError && <p className="error">{errorMessage(workspaces.error)}</p>}
      {workspaces.data?.length === 0 && <p className="muted">You belong to no workspace yet.</p>}
      {workspaces.data && workspaces.data.length > 0 && (
        <ul className="workspace-list" aria-label="Your workspaces">
          {workspaces.data.map((w) => (
            <li key={w.id}>
              <div className="workspace-list-head">
                <strong>{w.name}</strong>
                <span className="badge">{w.role}</span>
                {w.id === workspaceId ? (
                  <span className="muted small">(shown in the sidebar)</span>
                ) : (
                  <button type="button" className="secondary" onClick={() => chooseWorkspace(w.id)} aria-label={`Switch to ${w.name}`}>
                    Switch
                  </button>
                )}
              </div>
              <p className="muted small">{roleDescription(w.role)}</p>
            </li>
          ))}
        </ul>
      )}
      <p className="small">
        <Link to="/workspaces/new">New workspace</Link>
      </p>
    </section>
  );
}
