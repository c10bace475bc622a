import { LeafIcon } from './icons.tsx';

/** The product mark every page header carries. */
export function Brand() {
  return (
    <span className="brand">
      <LeafIcon />
      Nature Wall
    </span>
  );
}
