/**
 * The gear button of the Live Wall. The admin panel with its Streams and Scenes tabs comes with
 * the admin console; until then the panel points to the admin dashboard and the debug view.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { CloseIcon, GearIcon } from '../../components/icons.tsx';
import { useDialog } from '../../lib/useDialog.ts';
import '../../components/modal.css';

function AdminPanel({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  useDialog(dialog, onClose);
  return (
    <div className="modal-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialog} className="modal" role="dialog" aria-modal="true" aria-labelledby="admin-panel-title">
        <header className="modal__header">
          <h2 id="admin-panel-title">Admin panel</h2>
          <button type="button" className="icon-button" aria-label="Close admin panel" onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        <p className="modal__text">Manage the stream pool and build scenes for this wall.</p>
        <div className="modal__actions">
          <Link className="button" to="/admin">
            Open admin dashboard
          </Link>
          <Link className="button button--ghost" to="/debug">
            Stream debug view
          </Link>
        </div>
      </div>
    </div>
  );
}

export function AdminMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="icon-button" aria-label="Admin panel" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <GearIcon />
      </button>
      {open && <AdminPanel onClose={() => setOpen(false)} />}
    </>
  );
}
