/**
 * What each role may do, declared once for every screen (docs/api.md "Roles and permissions"; the
 * service's access checks in server/src are the truth, this mirrors them so that a control a person
 * may not use is hidden or disabled with its reason instead of failing when used). Approvals with a
 * list of approvers follow {@link mayDecideApproval}, not a role.
 */
import { useQueries } from '@tanstack/react-query';
import { foldersQuery, useWorkspaces } from '../workspaces/api';
import { ROLES, type Role } from './roles';

/** Each action a screen offers, with the least role that may do it and how a reason names it. */
export const PERMISSIONS = {
  /** Create, edit, move, complete and delete tasks; dates, notes, assignees, field values, comments; restore deleted tasks. */
  editTasks: { role: 'Participant', what: 'Editing tasks' },
  /** Run an agent's commands and continue its conversations. */
  runAgentCommands: { role: 'Participant', what: 'Running agent commands' },
  /** Decide an approval whose step names no approvers. */
  decideApprovals: { role: 'Participant', what: 'Deciding approvals' },
  /** Create, copy, rename, move, complete, restore and delete projects; save and use templates; create folders. */
  manageProjects: { role: 'Collaborator', what: 'Managing projects' },
  /** Define, rename, reorder and delete a project's custom fields. */
  defineFields: { role: 'Collaborator', what: 'Defining custom fields' },
  /** Read, enable and revoke a project's share link. */
  manageShareLinks: { role: 'Collaborator', what: 'Share links' },
  /** Create, generate, edit and delete agents, their knowledge and their public page. */
  manageAgents: { role: 'Collaborator', what: 'Creating and editing agents' },
  /** Upload and delete media. */
  manageMedia: { role: 'Collaborator', what: 'Uploading and deleting media' },
  /** Rename the workspace. */
  renameWorkspace: { role: 'Owner', what: 'Renaming the workspace' },
  /** Change roles, remove members, invite and withdraw invitations. */
  manageMembers: { role: 'Owner', what: 'Managing members and invitations' },
  /** Create, import, edit, enable, disable, duplicate and delete automations; restore versions; test runs. */
  manageAutomations: { role: 'Owner', what: 'Changing automations' },
  /** Replay and cancel runs. */
  manageRuns: { role: 'Owner', what: 'Replaying and cancelling runs' },
  /** Set, rotate and delete secrets. */
  manageSecrets: { role: 'Owner', what: 'Managing secrets' },
  /** Register and delete OAuth apps. */
  manageOAuthApps: { role: 'Owner', what: 'Registering OAuth apps' },
} as const satisfies Record<string, { role: Role; what: string }>;

/** One of the actions of {@link PERMISSIONS}. */
export type Action = keyof typeof PERMISSIONS;

/** True when `role` is a role name. */
function isRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

/** True when `role` (a workspace role as the API returns it; undefined while unknown) may do `action`. */
export function can(role: string | undefined, action: Action): boolean {
  if (role === undefined || !isRole(role)) return false;
  // ROLES is highest first: a lower index grants more.
  return ROLES.indexOf(role) <= ROLES.indexOf(PERMISSIONS[action].role);
}

/** Why `role` may not do `action`: "Changing automations needs the Owner role; you are a Participant." */
export function permissionReason(role: string | undefined, action: Action): string {
  const { role: needed, what } = PERMISSIONS[action];
  return `${what} needs the ${needed} role${role ? `; you are a ${role}` : ''}.`;
}

/** The caller's role in `workspaceId` (from the workspaces list), or undefined while unknown or not a member. */
export function useRoleIn(workspaceId: string | undefined): string | undefined {
  const workspaces = useWorkspaces();
  return workspaceId === undefined ? undefined : workspaces.data?.find((w) => w.id === workspaceId)?.role;
}

/** The caller's role in the workspace holding a folder (found among the folders of the caller's workspaces), or undefined while unknown. */
export function useRoleInFolder(folderId: string | undefined): string | undefined {
  const workspaces = useWorkspaces();
  const folders = useQueries({ queries: (workspaces.data ?? []).map((w) => foldersQuery(w.id)) });
  const index = folders.findIndex((f) => f.data?.some((folder) => folder.id === folderId));
  return index >= 0 ? workspaces.data?.[index]?.role : undefined;
}

/**
 * Props that disable a control `role` may not use, with the reason as its tooltip and (through
 * `aria-describedby`) its accessible description; pair it with a {@link PermissionNote} of the same
 * `id` so the reason is also visible. Empty when the control may be used.
 */
export function deniedProps(
  role: string | undefined,
  action: Action,
  id: string,
): { disabled?: true; title?: string; 'aria-describedby'?: string } {
  return can(role, action) ? {} : { disabled: true, title: permissionReason(role, action), 'aria-describedby': id };
}

/** The visible reason `role` may not do `action` (nothing when they may, or while the role is unknown). */
export function PermissionNote({ role, action, id }: { role: string | undefined; action: Action; id?: string }) {
  if (role === undefined || can(role, action)) return null;
  return (
    <p className="help permission-note" id={id}>
      {permissionReason(role, action)}
    </p>
  );
}

/**
 * Whether a person may decide a waiting approval (the service's rule in `decideRun`): only the
 * handles its step names, case-insensitively; when it names none, anyone with {@link PERMISSIONS}
 * `decideApprovals`.
 */
export function mayDecideApproval(approvers: readonly string[], handle: string | undefined, role: string | undefined): boolean {
  if (approvers.length === 0) return can(role, 'decideApprovals');
  return handle !== undefined && approvers.some((a) => a.toLowerCase() === handle.toLowerCase());
}

/** Who decides an approval, for those who may not: "Only @nina can decide this approval." */
export function approversSentence(approvers: readonly string[]): string {
  const names = approvers.map((a) => `@${a.replace(/^@/, '')}`);
  if (names.length === 0) return `Only members with the ${PERMISSIONS.decideApprovals.role} role or above can decide this approval.`;
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
  return `Only ${list} can decide this approval.`;
}

/** Plans whose accounts may register webhooks (server/src/modules/webhooks/service.ts `WEBHOOK_PLANS`; docs/webhooks.md). */
export const WEBHOOK_PLANS: readonly string[] = ['pro', 'business', 'enterprise'];

/**
 * Why an account may not register webhooks (not a role: the account's plan and verification), or
 * null when it may; null too while the account is unknown.
 */
export function webhookRefusal(account: { plan: string; verified: boolean } | undefined): string | null {
  if (!account) return null;
  if (!WEBHOOK_PLANS.includes(account.plan)) return `Registering webhooks needs the Pro plan or above; this account is on ${account.plan}.`;
  if (!account.verified) return 'Registering webhooks needs a verified account.';
  return null;
}
