import { ComingSoon } from './ComingSoon.tsx';

export function DebugPage() {
  return <ComingSoon title="Stream Debug View">Load any stream URL, see how it is recognised and played, and save it to the pool.</ComingSoon>;
}
