import { ComingSoon } from './ComingSoon.tsx';

export function LoginPage() {
  return <ComingSoon title="Administrator Login">Sign in to manage streams and scenes.</ComingSoon>;
}
