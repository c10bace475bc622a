/** Roles as the console shows them: a badge (what the role may do on hover), and a choice of role. */
import type { SelectHTMLAttributes } from 'react';
import { ROLE_INFO, ROLES, type Role } from '../../../src/shared/roles.ts';

export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`role-badge role-badge--${role}`} title={ROLE_INFO[role].does}>
      {ROLE_INFO[role].label}
    </span>
  );
}

/** A choice of role (an invitation, an account, an API token). */
export function RoleSelect({ value, onChange, ...rest }: { value: Role; onChange: (role: Role) => void } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'>) {
  return (
    <select className="control" value={value} onChange={(e) => onChange(e.target.value as Role)} {...rest}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_INFO[r].label}
        </option>
      ))}
    </select>
  );
}
