/** /login: administrators sign in here and go back where they came from. */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { authApi, safeNext } from './auth-api.ts';
import './auth.css';

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await authApi.login(username, password);
      navigate(next, { replace: true });
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status !== 0 && failure.status < 500 ? failure.message : 'Could not sign in. Please try again.');
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
