/**
 * Spec §4: the first user interaction (click, touch, key, mouse move) plays videos the browser
 * kept paused (autoplay refused, tab restored). Installed once for the whole app.
 */
const EVENTS = ['click', 'touchstart', 'keydown', 'mousemove'] as const;

export function installFirstInteractionPlay(doc: Document = document): () => void {
  const playPaused = () => {
    for (const video of doc.querySelectorAll('video')) {
      if (video.paused && video.readyState > 0) void video.play().catch(() => {});
    }
    remove();
  };
  const remove = () => EVENTS.forEach((type) => doc.removeEventListener(type, playPaused, true));
  EVENTS.forEach((type) => doc.addEventListener(type, playPaused, { capture: true, passive: true }));
  return remove;
}
