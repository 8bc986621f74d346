/**
 * Workspace roles as the screens show them (docs/api.md "Roles and permissions"): the one
 * declaration of what each role may do, in words, used wherever a role is chosen or shown (Members,
 * invitations, Profile, Workspace settings). Which role each action of a screen needs, for showing
 * or disabling its controls, is declared in `permissions.tsx`.
 */
import './roles.css';

/** Workspace roles, highest first (the order of role pickers). */
export const ROLES = ['Owner', 'Collaborator', 'Participant', 'Viewer'] as const;

/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** What each role may do, in one sentence; each includes the ones below it. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  Owner:
    'Everything a Collaborator can, plus renaming the workspace, members and invitations, automations, secrets, OAuth apps and inbound webhook URLs.',
  Collaborator: 'Everything a Participant can, plus projects, folders, custom fields, share links, agents and media.',
  Participant:
    'Everything a Viewer can, plus editing tasks (dates, notes, assignees, comments), running agent commands and deciding open approvals.',
  Viewer: 'Reads everything in the workspace; changes nothing.',
};

/** The sentence for `role`, or an empty string for a name that is not a role. */
export function roleDescription(role: string | undefined): string {
  return role !== undefined && role in ROLE_DESCRIPTIONS ? ROLE_DESCRIPTIONS[role as Role] : '';
}

/** Every role with its sentence, as a disclosure ("What each role may do") under a role picker. */
export function RoleGuide() {
  return (
    <details className="role-guide">
      <summary>What each role may do</summary>
      <dl>
        {ROLES.map((r) => (
          <div key={r}>
            <dt>{r}</dt>
            <dd>{ROLE_DESCRIPTIONS[r]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
