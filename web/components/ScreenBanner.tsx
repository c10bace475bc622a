/** A takeover's short line over whatever a screen shows (the server sends it with the state while the takeover lasts). */
import './screen-banner.css';

export function ScreenBanner({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="screen-banner" role="status">
      {text}
    </p>
  );
}
