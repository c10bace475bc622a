import { Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { installFirstInteractionPlay } from './lib/interaction.ts';
import { store } from './lib/store.ts';
import { router } from './router.tsx';
import './styles/base.css';

installFirstInteractionPlay();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
