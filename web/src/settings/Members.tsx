import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { useMe } from '../profile/api';
import { invitationsQuery, membersQuery, useInvitationChanges, useMemberChanges, useWorkspaces } from '../workspaces/api';
import { ItemTable } from '../components/ItemTable';
import { WorkspaceSelect } from '../components/WorkspaceSelect';
import { CopyField } from '../components/CopyButton';
import { ROLES, ROLE_DESCRIPTIONS, RoleGuide, type Role } from '../components/roles';
import { can, PermissionNote } from '../components/permissions';

/** The id of the sentence saying why the last Owner's role and Remove are disabled. */
const LAST_OWNER_ID = 'members-last-owner';
/**
 * Settings → Members (docs "Invitations and members"): every member sees who belongs to the
 * workspace; Owners also invite (the link is shown once), withdraw invitations, change roles and
 * remove members. The service enforces the same rules whatever this screen shows.
 */
export function Members() {
  const workspaces = useWorkspaces();
  const [chosen, setChosen] = useState<string | null>(null);
  const workspace = workspaces.data?.find((w) => w.id === chosen) ?? workspaces.data?.[0];
  if (!workspace) return <p className="muted">Loading…</p>;
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <WorkspaceSelect workspaces={workspaces.data!} value={workspace.id} onChange={setChosen} />
      <WorkspaceMembers key={workspace.id} workspaceId={workspace.id} role={workspace.role} />
    </section>
  );
}

function WorkspaceMembers({ workspaceId, role }: { workspaceId: string; role: string }) {
  const isOwner = can(role, 'manageMembers');
  const me = useMe();
  const members = useQuery(membersQuery(workspaceId));
  const [confirming, setConfirming] = useState<string | null>(null);
  const { changeRole, remove } = useMemberChanges(workspaceId);
  const failure = changeRole.error ?? remove.error;
  // The service keeps at least one Owner (409 last_owner): the last one's role and Remove are
  // disabled, with the reason, rather than offered and refused.
  const owners = members.data?.filter((m) => m.role === 'Owner').length ?? 0;
  const isLastOwner = (m: { role: string }) => m.role === 'Owner' && owners === 1;
  return (
    <>
      <h2>People</h2>
      <PermissionNote role={role} action="manageMembers" />
      {failure && (
        <p role="alert" className="error">
          {errorMessage(failure)}
        </p>
      )}
      <ItemTable
        items={members.data}
        empty="No members."
        columns={isOwner ? ['Member', 'Role', 'Actions'] : ['Member', 'Role']}
        row={(m) => (
          <tr key={m.userId}>
            <td>
              {m.displayName} <span className="muted">@{m.handle}</span>
              {m.handle === me.data?.item.handle ? <span className="muted"> (you)</span> : null}
            </td>
            <td>
              {isOwner ? (
                <select
                  aria-label={`Role of @${m.handle}`}
                  title={ROLE_DESCRIPTIONS[m.role as Role]}
                  value={m.role}
                  disabled={isLastOwner(m)}
                  aria-describedby={isLastOwner(m) ? LAST_OWNER_ID : undefined}
                  onChange={(e) => changeRole.mutate({ handle: m.handle!, role: e.target.value as Role })}
                >
                  {ROLES.map((r) => (
                    <option key={r} title={ROLE_DESCRIPTIONS[r]}>
                      {r}
                    </option>
                  ))}
                </select>
              ) : (
                m.role
              )}
            </td>
            {isOwner && (
              <td>
                {confirming === m.handle ? (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => remove.mutate(m.handle!, { onSettled: () => setConfirming(null) })}
                  >
                    Confirm removing @{m.handle}
                  </button>
                ) : (
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setConfirming(m.handle!)}
                    aria-label={`Remove @${m.handle}`}
                    disabled={isLastOwner(m)}
                    aria-describedby={isLastOwner(m) ? LAST_OWNER_ID : undefined}
                  >
                    Remove
                  </button>
                )}
              </td>
            )}
          </tr>
        )}
      />
      {isOwner && owners === 1 && (
        <p id={LAST_OWNER_ID} className="muted small">
          A workspace keeps at least one Owner: make someone else Owner before you change your role or leave.
        </p>
      )}
      {isOwner && <RoleGuide />}
      {isOwner && <Invitations workspaceId={workspaceId} />}
    </>
  );
}

/** Owners: invite by email or handle (the link is shown once) and withdraw pending invitations. */
function Invitations({ workspaceId }: { workspaceId: string }) {
  const [invitee, setInvitee] = useState('');
  const [role, setRole] = useState<Role>('Collaborator');
  const [link, setLink] = useState<string | null>(null);
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const pending = useQuery(invitationsQuery(workspaceId));
  const { invite, withdraw } = useInvitationChanges(workspaceId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLink(null);
    invite.mutate(
      { invitee, role },
      {
        onSuccess: (item) => {
          setLink(item.url ?? null);
          setMailedTo(item.mailed && item.email ? item.email : null);
          setInvitee('');
        },
      },
    );
  };
  return (
    <>
      <form onSubmit={submit} className="card wide" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite someone</h2>
        <label>
          Email or @handle
          <input required value={invitee} onChange={(e) => setInvitee(e.target.value)} placeholder="nina@example.org or @paul" />
        </label>
        <label>
          Role
          <select
            aria-label="Role for the invitation"
            aria-describedby="invite-role-help"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
          >
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <p className="help" id="invite-role-help">
          {role}: {ROLE_DESCRIPTIONS[role]}
        </p>
        {invite.error && (
          <p role="alert" className="error">
            {errorMessage(invite.error)}
          </p>
        )}
        {link && (
          <div role="status" className="secret stack">
            {mailedTo && <span>The invitation was mailed to {mailedTo}.</span>}
            <span>Invitation link (shown once, valid for 7 days; send it to the person):</span>
            <CopyField value={link} label="Copy the invitation link" />
          </div>
        )}
        <button type="submit" disabled={invite.isPending}>
          Create invitation link
        </button>
      </form>
      <h2>Pending invitations</h2>
      <ItemTable
        items={pending.data}
        empty="No pending invitations."
        columns={['Invitee', 'Role', 'Expires', 'Actions']}
        row={(i) => (
          <tr key={i.id}>
            <td>{i.email ?? `@${i.handle}`}</td>
            <td>{i.role}</td>
            <td>{i.expiresAt ? new Date(i.expiresAt).toLocaleDateString() : ''}</td>
            <td>
              <button
                type="button"
                className="secondary"
                onClick={() => withdraw.mutate(i.id!)}
                aria-label={`Withdraw the invitation of ${i.email ?? `@${i.handle}`}`}
              >
                Withdraw
              </button>
            </td>
          </tr>
        )}
      />
    </>
  );
}
