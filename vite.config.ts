import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The web app lives in web/; it is built into dist/web, which the Koa server serves. */
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true, // the server reads it to hint a screen route's chunks (src/http/web-hints.ts)
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
});
