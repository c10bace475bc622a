/** A modal dialog: labelled, Escape and backdrop close it, focus stays inside (useDialog). */
import { useRef, type ReactNode } from 'react';
import { useDialog } from '../lib/useDialog.ts';
import { CloseIcon } from './icons.tsx';
import './modal.css';

export function Modal({ title, onClose, children, wide = false }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const dialog = useRef<HTMLDivElement>(null);
  useDialog(dialog, onClose);
  const titleId = `modal-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={dialog} className={`modal${wide ? ' modal--wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <header className="modal__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog(props: { title: string; message: ReactNode; confirm: string; onConfirm: () => void; onCancel: () => void; danger?: boolean }) {
  return (
    <Modal title={props.title} onClose={props.onCancel}>
      <div className="modal__text">{props.message}</div>
      <div className="modal__footer">
        <button type="button" className="button button--ghost" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className={`button${props.danger ? ' button--danger' : ''}`} onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </Modal>
  );
}
