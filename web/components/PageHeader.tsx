/**
 * The one page header of the console's pages (dashboard, database test, debug view): the
 * document title, the product mark, the page's name, and its actions on the right.
 */
import type { ReactNode } from 'react';
import { Brand } from './Brand.tsx';

export function PageHeader({ title, documentTitle = title, children }: { title: string; documentTitle?: string; children?: ReactNode }) {
  return (
    <>
      <title>{`${documentTitle} · Nature Wall`}</title>
      <header className="admin__header">
        <div className="admin__title">
          <Brand />
          <h1>{title}</h1>
        </div>
        {children}
      </header>
    </>
  );
}
