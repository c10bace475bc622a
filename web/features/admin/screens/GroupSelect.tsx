/** A screen's group: a select of the screen groups, "No group" first (null). */
import type { SelectHTMLAttributes } from 'react';
import type { ScreenGroupDto } from '../../../../src/shared/api/index.ts';

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  groups: readonly ScreenGroupDto[];
  value: number | null;
  onChange: (id: number | null) => void;
  label: string;
};

export function GroupSelect({ groups, value, onChange, label, ...rest }: Props) {
  return (
    <select {...rest} className="control" aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
      <option value="">No group</option>
      {groups.map((g) => (
        <option key={g.id} value={g.id}>
          {g.name}
        </option>
      ))}
    </select>
  );
}
