/**
 * Every route of spec §2, each page in its own lazily loaded chunk: a kiosk tablet downloads
 * the kiosk page and the player, never the Live Wall, the setup guide or the admin console.
 */
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { RouteError } from './components/RouteError.tsx';
import { StatusScreen } from './components/StatusScreen.tsx';
import { ADMIN_TABS } from './features/admin/tabs.ts';
import { SCREEN_PAGES, type ScreenPageName } from '../src/shared/screen-pages.ts';

/** A page behind the sign-in check; the check's code loads with the page, not before. */
async function adminOnly<M extends Record<K, ComponentType>, K extends string>(page: Promise<M>, name: K): Promise<ComponentType> {
  const [module, auth] = await Promise.all([page, import('./features/auth/RequireAdmin.tsx')]);
  return auth.adminOnly(module[name]);
}

// Screen pages (their paths are shared with the server, which hints their chunks in the HTML).
const screens: Record<ScreenPageName, () => Promise<{ Component: ComponentType }>> = {
  viewer: async () => ({ Component: (await import('./features/viewer/SceneViewer.tsx')).SceneViewer }),
  kiosk: async () => ({ Component: (await import('./features/kiosk/KioskScreen.tsx')).KioskScreen }),
  wall: async () => ({ Component: (await import('./features/wall/LiveWall.tsx')).LiveWall }),
};

export const router = createBrowserRouter([
  {
    path: '/',
    errorElement: <RouteError />,
    hydrateFallbackElement: <StatusScreen tone="loading" title="Nature Wall" />,
    children: [
      ...(Object.keys(SCREEN_PAGES) as ScreenPageName[]).flatMap((name) =>
        SCREEN_PAGES[name].paths.map((path) => (path === '/' ? { index: true, lazy: screens[name] } : { path, lazy: screens[name] })),
      ),
      { path: 'setup', lazy: async () => ({ Component: (await import('./features/setup/SetupGuide.tsx')).SetupGuide }) },
      // Administrators only: a visitor is sent to /login and brought back.
      { path: 'debug', lazy: async () => ({ Component: await adminOnly(import('./features/debug/DebugPage.tsx'), 'DebugPage') }) },
      {
        path: 'admin',
        lazy: async () => ({ Component: await adminOnly(import('./features/admin/AdminShell.tsx'), 'AdminShell') }),
        children: [
          { index: true, element: <Navigate to="streams" replace /> },
          ...ADMIN_TABS.map((tab) => ({ path: tab.path, lazy: async () => ({ Component: (await tab.load()).default }) })),
        ],
      },
      { path: 'test-db', lazy: async () => ({ Component: await adminOnly(import('./features/admin/TestDbPage.tsx'), 'TestDbPage') }) },
      {
        path: 'admin/evaluate',
        lazy: async () => ({ Component: (await import('./features/evaluate/EvaluatePage.tsx')).EvaluatePage }),
      },
      { path: 'submit', lazy: async () => ({ Component: (await import('./features/submit/SubmitPage.tsx')).SubmitPage }) },
      { path: 'welcome', lazy: async () => ({ Component: (await import('./features/auth/WelcomePage.tsx')).WelcomePage }) },
      { path: 'login', lazy: async () => ({ Component: (await import('./features/auth/LoginPage.tsx')).LoginPage }) },
      { path: '*', lazy: async () => ({ Component: (await import('./features/placeholders/NotFoundPage.tsx')).NotFoundPage }) },
    ],
  },
]);
