/** A scene picker: active scenes (and the one chosen, should it have been deleted), or none. */
import type { SceneDto } from '../../../../src/shared/api/index.ts';

/** What a role gate (useMay().button) sets on a control that saves on change. */
interface Gate {
  disabled?: boolean;
  title?: string | undefined;
  'data-refused'?: string;
}

export function SceneSelect(props: {
  scenes: readonly SceneDto[];
  value: number | null;
  onChange: (id: number | null) => void;
  /** What "no scene" reads as ("No scene of its own", "Choose a scene"). */
  none: string;
  /** Its accessible name when no <label> wraps it. */
  label?: string;
  required?: boolean;
} & Gate) {
  return (
    <select
      className="control"
      aria-label={props.label}
      value={props.value ?? ''}
      required={props.required}
      disabled={props.disabled}
      title={props.title}
      data-refused={props['data-refused']}
      onChange={(e) => props.onChange(e.target.value ? Number(e.target.value) : null)}
    >
      <option value="">{props.none}</option>
      {props.scenes
        .filter((s) => s.active || s.id === props.value)
        .map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
    </select>
  );
}
