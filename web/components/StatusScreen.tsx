/** A whole-screen message: loading, empty or failed, with an optional action. */
import type { ReactNode } from 'react';
import { AlertIcon, MountainIcon } from './icons.tsx';

interface StatusScreenProps {
  tone?: 'loading' | 'empty' | 'error';
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}

export function StatusScreen({ tone = 'empty', title, children, action }: StatusScreenProps) {
  return (
    <main className={`status-screen status-screen--${tone}`}>
      <div className="status-screen__panel" role={tone === 'error' ? 'alert' : tone === 'loading' ? 'status' : undefined}>
        {tone === 'loading' ? (
          <span className="spinner" aria-hidden="true" />
        ) : tone === 'error' ? (
          <AlertIcon className="status-screen__icon" />
        ) : (
          <MountainIcon className="status-screen__icon" />
        )}
        <h1>{title}</h1>
        {children}
        {action}
      </div>
    </main>
  );
}
