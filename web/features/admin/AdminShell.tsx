/**
 * /admin: the console's frame — header (spec §2 buttons, who is signed in, Log out), tabs that
 * are URLs, the live link to the hub, and the toasts that show every failure with the server's
 * message.
 */
import { useAtomValue } from 'jotai';
import { Link, NavLink, Outlet, useNavigate } from 'react-router-dom';
import { Toaster } from 'sonner';
import { PageHeader } from '../../components/PageHeader.tsx';
import { numberOf } from '../../lib/count.ts';
import { store } from '../../lib/store.ts';
import { adminApi } from './admin-api.ts';
import { TAB_BADGES, type TabBadge as Badge } from './tab-badges.ts';
import { ADMIN_TABS } from './tabs.ts';
import { showFailure } from './feedback.ts';
import { useAdminLive } from './useAdminLive.ts';
import { useMay } from './access.ts';
import { RoleBadge } from './Roles.tsx';
import './admin.css';

function TabBadge({ badge }: { badge: Badge }) {
  const count = useAtomValue(badge.count, { store });
  if (count <= 0) return null;
  return (
    <span className="admin__count" aria-label={`${numberOf(count)} ${badge.label}`}>
      {numberOf(count)}
    </span>
  );
}

export function AdminShell() {
  useAdminLive();
  const navigate = useNavigate();
  const { me, can } = useMay();

  async function logout() {
    try {
      await adminApi.logout();
      navigate('/login', { replace: true });
    } catch (error) {
      showFailure('Could not log out', error);
    }
  }

  return (
    <div className="admin">
      <PageHeader title="Admin Dashboard">
        <div className="admin__actions">
          <Link className="button button--ghost button--small" to="/admin/evaluate">
            Evaluate Quality
          </Link>
          <Link className="button button--ghost button--small" to="/submit">
            Submit Stream
          </Link>
          <Link className="button button--small" to="/app">
            View Live Wall
          </Link>
          <span className="admin__user">
            <span>
              Signed in as <strong>{me?.username ?? '…'}</strong>
              {me && <RoleBadge role={me.role} />}
            </span>
            <button type="button" className="button button--ghost button--small" onClick={() => void logout()}>
              Log out
            </button>
          </span>
        </div>
      </PageHeader>
      <nav className="admin__tabs" aria-label="Admin sections">
        {ADMIN_TABS.filter((tab) => !tab.needs || can(tab.needs)).map((tab) => (
          <NavLink key={tab.path} className="admin__tab" to={`/admin/${tab.path}`}>
            {tab.label}
            {TAB_BADGES[tab.path] && <TabBadge badge={TAB_BADGES[tab.path]!} />}
          </NavLink>
        ))}
      </nav>
      <main className="admin__main">
        <Outlet />
      </main>
      <Toaster theme="dark" position="bottom-right" richColors closeButton duration={8000} />
    </div>
  );
}
