import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** Placeholder until the viewer screens land: shows that the server and API are up. */
function Placeholder() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem', color: '#e8f0ea', background: '#0b1410', minHeight: '100vh' }}>
      <h1>Nature Wall</h1>
      <p>The server is running. The API lives under <a style={{ color: '#8fd3a8' }} href="/api/scenes">/api</a>.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);
