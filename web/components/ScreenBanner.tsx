/** A takeover's short line over whatever a screen shows (the server sends it with the state while the takeover lasts). */
import { sideProps } from '../features/screen/Flip.tsx';
import './screen-banner.css';

/** `side`: which side of a waiting flip it belongs to (Flip.tsx); absent, both. */
export function ScreenBanner({ text, side }: { text: string | undefined; side?: 'now' | 'next' | undefined }) {
  if (!text) return null;
  return (
    <p className="screen-banner" role="status" {...sideProps(side)}>
      {text}
    </p>
  );
}
