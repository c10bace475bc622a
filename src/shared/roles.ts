/**
 * The people who run the walls, by role — each a superset of the one before. Declared once here
 * and read by the contract (each endpoint's least role, src/shared/api/<feature>.ts), the access
 * guard, the socket policy and the console (which disables what a role may not do, saying why).
 */
export const ROLES = ['viewer', 'operator', 'curator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_INFO: Record<Role, { label: string; does: string }> = {
  viewer: { label: 'Viewer', does: 'Reading the console — streams, scenes, screens, activity and alerts — without changing anything' },
  operator: { label: 'Operator', does: 'What a viewer may, plus switching the default scene, takeovers, schedules and screen groups, reloading and identifying screens, and tuning alert rules' },
  curator: { label: 'Curator', does: 'What an operator may, plus editing streams and scenes, reviewing submissions, running discovery and quality analysis' },
  admin: { label: 'Admin', does: 'What a curator may, plus the team, API tokens, alert destinations and the database check' },
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether someone with `role` may do what needs at least `needed`. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

const article = (role: Role) => (role === 'admin' || role === 'operator' ? 'an' : 'a');

/**
 * Why someone with `role` (null: nobody signed in) may not do what needs `needed` — 401 for
 * nobody, 403 naming the role for a role below it — or null when they may. The access guard,
 * the socket policy and the console's disabled controls all ask here.
 */
export function denial(needed: 'public' | Role, role: Role | null): { status: 401 | 403; error: string } | null {
  if (needed === 'public') return null;
  if (!role) return { status: 401, error: 'Authentication required' };
  return roleAtLeast(role, needed) ? null : { status: 403, error: refusal(needed, role) };
}

/** The sentence a refusal answers with (a 403, a disabled button's hover). */
export function refusal(needed: Role, role?: Role): string {
  const base = `This needs the ${needed} role${needed === 'admin' ? '' : ' or higher'}`;
  return role ? `${base}; you are ${article(role)} ${role}.` : `${base}.`;
}
