import { Provider } from 'jotai';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPath, RouterProvider } from 'react-router-dom';
import { installChunkReload } from './lib/chunk-reload.ts';
import { installFirstInteractionPlay } from './lib/interaction.ts';
import { installServiceWorker } from './lib/service-worker.ts';
import { store } from './lib/store.ts';
import { IdentifyOverlay } from './features/screen/IdentifyOverlay.tsx';
import { cameraPrestarted, cameraShown } from './components/Player/prestarted.ts';
import { router } from './router.tsx';
import './styles/base.css';
import { SCREEN_PAGES, type ScreenPageName } from '../src/shared/screen-pages.ts';

/** How long a kiosk's app waits for its camera's first picture before it renders. */
const CAMERA_FIRST_MS = 400;

installFirstInteractionPlay();
installChunkReload(); // before anything lazy is imported
installServiceWorker(); // after the first picture: screens can start without their server

const render = () => {
  const root = createRoot(document.getElementById('root')!);
  const app = (
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
        <IdentifyOverlay />
      </Provider>
    </StrictMode>
  );
  // A kiosk whose camera started before the app (web/prestart.ts): its first picture comes
  // first — the app renders once it is decoded (or after CAMERA_FIRST_MS), and that render
  // yields to hls.js's work on the same thread (a transition) instead of holding it.
  if (cameraPrestarted()) void cameraShown(CAMERA_FIRST_MS).then(() => startTransition(() => root.render(app)));
  else root.render(app);
};

/**
 * A screen page opens its connection first and renders after: its handshake runs while React
 * puts the page together, so the first state arrives sooner (the connection's chunk is hinted
 * in the HTML, src/http/web-hints.ts, so waiting for it costs a task, not a download).
 */
function screenPageHere(): { name: ScreenPageName; params: Record<string, string | undefined> } | null {
  for (const name of Object.keys(SCREEN_PAGES) as ScreenPageName[]) {
    const match = SCREEN_PAGES[name].paths.map((path) => matchPath(path, location.pathname)).find(Boolean);
    if (match) return { name, params: match.params };
  }
  return null;
}

const screen = screenPageHere();
if (screen) {
  import('./features/screen/session.ts')
    .then(({ connectEarly }) => connectEarly(screen.name, screen.params))
    .catch(() => {}) // the page connects by itself when it mounts
    .finally(render);
} else render();
