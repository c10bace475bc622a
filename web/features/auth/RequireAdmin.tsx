/** Wraps an admin page: a visitor who is not signed in is sent to /login and brought back. */
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { MeDto } from '../../../src/shared/api/index.ts';
import { StatusScreen } from '../../components/StatusScreen.tsx';
import { authApi, loginPath } from './auth-api.ts';

function RequireAdmin({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [me, setMe] = useState<MeDto | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    authApi.me().then(
      (answer) => live && setMe(answer),
      () => live && setMe('failed'),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  if (me === null) return <StatusScreen tone="loading" title="Checking your sign-in..." />;
  if (me === 'failed') {
    return (
      <StatusScreen
        tone="error"
        title="Oops!"
        action={
          <button className="button" type="button" onClick={() => (setMe(null), setAttempt((n) => n + 1))}>
            Try Again
          </button>
        }
      >
        <p>Could not check your sign-in. Please check if the server is running.</p>
      </StatusScreen>
    );
  }
  if (!me.authenticated) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return <>{children}</>;
}

/** `lazy: async () => ({ Component: adminOnly((await import(...)).Page) })` */
export function adminOnly<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return function AdminOnly(props: P) {
    return (
      <RequireAdmin>
        <Page {...props} />
      </RequireAdmin>
    );
  };
}
