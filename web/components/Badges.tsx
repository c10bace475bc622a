/** Small labels the cards and tiles share. */
import './components.css';
import type { Category, Quality } from '../../src/shared/constants.ts';
import { CategoryIcon } from './icons.tsx';
import { awayFor, onScreenStatus } from '../../src/shared/quality/on-screen-status.ts';

export function LiveBadge({ text = 'LIVE' }: { text?: string }) {
  return <span className="badge badge--live">{text}</span>;
}

/** LIVE, OFFLINE (for how long) or what is wrong (FROZEN, BLACK…), as the server holds the stream. */
export function StatusBadge({ stream, now = Date.now() }: { stream: Parameters<typeof onScreenStatus>[0]; now?: number }) {
  const status = onScreenStatus(stream);
  if (status.tone === 'live') return <LiveBadge />;
  const away = status.tone === 'offline' ? awayFor(status.since, now) : null;
  return (
    <span className={`badge badge--${status.tone}`}>
      {status.label}
      {away ? <span className="badge__note"> · {away}</span> : null}
    </span>
  );
}

/** Quality label in capitals: HD, 4K, SD. */
export function QualityBadge({ quality }: { quality: Quality }) {
  return <span className="badge badge--quality">{quality.toUpperCase()}</span>;
}

const CATEGORY_NAMES: Record<Category, string> = {
  nature: 'Nature',
  volcano: 'Volcano',
  ocean: 'Ocean',
  waterfall: 'Waterfall',
  wildlife: 'Wildlife',
};

export function CategoryLabel({ category }: { category: Category }) {
  return (
    <span className="category">
      <CategoryIcon category={category} className="category__icon" />
      {CATEGORY_NAMES[category] ?? category}
    </span>
  );
}
