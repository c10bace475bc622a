/** /login: administrators sign in here and go back where they came from. */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { authApi, safeNext } from './auth-api.ts';
import './auth.css';

/** "9 s", "4 min", "1 h 5 min". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, seconds)} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** When the caller itself is limited: how long it must wait, in words. */
  const [wait, setWait] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    setWait(null);
    try {
      await authApi.login(username, password);
      navigate(next, { replace: true });
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status !== 0 && failure.status < 500 ? failure.message : 'Could not sign in. Please try again.');
      if (failure instanceof ApiError && failure.status === 429 && failure.retryAfterSeconds !== null) {
        // The page says how long; the server's "try again later" (for callers without one) would say it twice.
        setError(failure.message.replace(/; try again later$/, ''));
        setWait(waitInWords(failure.retryAfterSeconds));
      }
      setSubmitting(false);
    }
  }

  return (
    <main className="login">
      <form className="login__panel" onSubmit={submit} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">Administrator sign in</h1>
        <p className="login__hint">Sign in to manage streams, scenes and what every wall shows.</p>
        <label className="login__field">
          <span>Username</span>
          <input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
        </label>
        <label className="login__field">
          <span>Password</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="login__error" role="alert">
            {error}
            {wait && <span className="login__wait">You can try again in {wait}.</span>}
          </p>
        )}
        <button className="button" type="submit" disabled={submitting || !username || !password}>
          {submitting ? 'Signing in...' : 'Sign in'}
        </button>
        <Link className="login__back" to="/">
          Back to the wall
        </Link>
      </form>
    </main>
  );
}
