import { ComingSoon } from './ComingSoon.tsx';

export function EvaluatePage() {
  return <ComingSoon title="Quality Evaluation">Rate live streams from 1 to 5 to help rank the best cameras.</ComingSoon>;
}
