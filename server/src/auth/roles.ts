/**
 * Workspace roles, lowest first (spec section 5.2; README "Roles and permissions").
 * Viewer reads; Participant also edits tasks; Collaborator also creates and deletes projects,
 * agents and media; Owner also manages members, webhooks and automations.
 */
export const ROLES = ['Viewer', 'Participant', 'Collaborator', 'Owner'] as const;

/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** True when `role` grants at least what `min` grants. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/** True when `value` is a role name (case-sensitive). */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
