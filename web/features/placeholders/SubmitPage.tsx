import { ComingSoon } from './ComingSoon.tsx';

export function SubmitPage() {
  return <ComingSoon title="Submit a Stream">Suggest a live nature camera for the wall; administrators review every submission.</ComingSoon>;
}
