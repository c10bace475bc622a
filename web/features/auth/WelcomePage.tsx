/**
 * /welcome#<secret>: the page of a one-time link an admin sent — an invitation, or a new
 * password. It says whose link it is and with which role, takes the person's own password,
 * spends the link and signs them in. The secret stays in the fragment (never sent in a URL the
 * server or a proxy would log) and is dropped from the address bar once read.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MIN_PASSWORD_LENGTH, type LinkInfoDto } from '../../../src/shared/api/index.ts';
import { ROLE_INFO } from '../../../src/shared/roles.ts';
import { ApiError, call } from '../../lib/api.ts';
import './auth.css';


const sentenceOf = (failure: unknown, fallback: string) =>
  failure instanceof ApiError && failure.status !== 0 && failure.status < 500 ? failure.message.replace(/^(token|password): /, '') : fallback;

export function WelcomePage() {
  const navigate = useNavigate();
  const [token] = useState(() => window.location.hash.slice(1));
  const [info, setInfo] = useState<LinkInfoDto | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
    if (!token) return setRefused('This page needs the whole link an admin sent you.');
    call('team.inspectLink', { body: { token } }).then(setInfo, (failure: unknown) => setRefused(sentenceOf(failure, 'Could not check this link. Please try again.')));
  }, [token]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password !== again) return setError('The two passwords differ.');
    setSubmitting(true);
    setError(null);
    try {
      // The answer signs the person in (it sets the session cookie).
      await call('team.acceptLink', { body: { token, password } });
      navigate('/admin', { replace: true });
    } catch (failure) {
      setError(sentenceOf(failure, 'Could not set your password. Please try again.'));
      setSubmitting(false);
    }
  }

  return (
    <main className="login">
      {refused ? (
        <div className="login__panel" role="alert">
          <h1>This link cannot be used</h1>
          <p className="login__hint">{refused}</p>
          <Link className="button" to="/login">
            Go to sign in
          </Link>
        </div>
      ) : (
        <form className="login__panel" onSubmit={submit} aria-labelledby="welcome-title" noValidate>
          <h1 id="welcome-title">{info ? (info.purpose === 'invite' ? `Welcome, ${info.username}` : `A new password for ${info.username}`) : 'Checking your link…'}</h1>
          {info && (
            <p className="login__hint">
              {info.purpose === 'invite' ? 'You are invited to run Nature Wall as ' : 'You run Nature Wall as '}
              <strong>{ROLE_INFO[info.role].label.toLowerCase()}</strong>: {ROLE_INFO[info.role].does.charAt(0).toLowerCase() + ROLE_INFO[info.role].does.slice(1)}. Choose a
              password of at least {MIN_PASSWORD_LENGTH} characters.
            </p>
          )}
          <input type="text" name="username" autoComplete="username" value={info?.username ?? ''} readOnly hidden />
          <label className="login__field">
            <span>New password</span>
            <input name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required disabled={!info} />
          </label>
          <label className="login__field">
            <span>Repeat it</span>
            <input name="again" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required disabled={!info} />
          </label>
          {error && (
            <p className="login__error" role="alert">
              {error}
            </p>
          )}
          <button className="button" type="submit" disabled={!info || submitting || !password || !again}>
            {submitting ? 'Saving…' : info?.purpose === 'reset' ? 'Set password and sign in' : 'Join and sign in'}
          </button>
        </form>
      )}
    </main>
  );
}
