import { Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { installFirstInteractionPlay } from './lib/interaction.ts';
import { store } from './lib/store.ts';
import { IdentifyOverlay } from './features/screen/IdentifyOverlay.tsx';
import { router } from './router.tsx';
import './styles/base.css';

installFirstInteractionPlay();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
      <IdentifyOverlay />
    </Provider>
  </StrictMode>,
);
