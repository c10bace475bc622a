import { ComingSoon } from './ComingSoon.tsx';

export function AdminPage() {
  return <ComingSoon title="Admin Dashboard">Manage the stream pool, scenes, the default scene, discovery and quality evaluation.</ComingSoon>;
}
