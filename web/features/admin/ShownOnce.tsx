/**
 * A secret the server shows once (an API token, a webhook's signing secret, a one-time link):
 * what it is, the value ready to select or copy, and Done to put it away.
 */
import type { ReactNode } from 'react';
import { showFailure, showSuccess } from './feedback.ts';

export function ShownOnce({ title, value, label, onDone, className = 'panel' }: { title: ReactNode; value: string; label: string; onDone: () => void; className?: string }) {
  return (
    <div className={className} role="status">
      <strong>{title}</strong>
      <div className="toolbar">
        <input className="control toolbar__search" readOnly value={value} aria-label={label} onFocus={(e) => e.target.select()} />
        <button
          type="button"
          className="button button--ghost"
          onClick={() => navigator.clipboard.writeText(value).then(() => showSuccess('Copied'), (f: unknown) => showFailure('Could not copy', f))}
        >
          Copy
        </button>
        <button type="button" className="button button--ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
