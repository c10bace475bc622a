/**
 * The gear button of the Live Wall. An administrator gets the admin panel (its code loads only
 * then); anyone else is sent to sign in and brought back to the wall.
 */
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GearIcon } from '../../components/icons.tsx';
import { authApi, loginPath } from '../auth/auth-api.ts';

const LiveWallPanel = lazy(() => import('../admin/LiveWallPanel.tsx'));

export function AdminMenu() {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();

  async function openPanel() {
    const me = await authApi.me().catch(() => null);
    if (me?.authenticated) setOpen(true);
    else navigate(loginPath('/app'));
  }

  return (
    <>
      <button type="button" className="icon-button" aria-label="Admin panel" aria-haspopup="dialog" onClick={() => void openPanel()}>
        <GearIcon />
      </button>
      {open && (
        <Suspense fallback={null}>
          <LiveWallPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
