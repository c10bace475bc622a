/** A page whose screen arrives with a later piece of work: titled, linked back, honest. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Brand } from '../../components/Brand.tsx';
import './placeholders.css';

export function ComingSoon({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="placeholder">
      <title>{`${title} · Nature Wall`}</title>
      <div className="placeholder__panel">
        <Brand />
        <h1>{title}</h1>
        <p>{children}</p>
        <p className="placeholder__soon">Coming soon.</p>
        <nav className="placeholder__links" aria-label="Screens">
          <Link className="button" to="/app">
            View Live Wall
          </Link>
          <Link className="button button--ghost" to="/">
            Scene viewer
          </Link>
        </nav>
      </div>
    </main>
  );
}
