/** Small labels the cards and tiles share. */
import './components.css';
import type { Category, Quality } from '../../src/shared/constants.ts';
import { CategoryIcon } from './icons.tsx';

export function LiveBadge({ text = 'LIVE' }: { text?: string }) {
  return <span className="badge badge--live">{text}</span>;
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
