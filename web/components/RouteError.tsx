/**
 * The router's error page (spec §8): a page that could not be loaded or threw while rendering.
 * A chunk that failed for a deploy is reloaded first (web/lib/chunk-reload.ts), meanwhile this
 * shows a loading screen; what is left is said plainly, with Reload, and the detail for whoever
 * looks after the screen.
 */
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { chunkReloadPending } from '../lib/chunk-reload.ts';
import { StatusScreen } from './StatusScreen.tsx';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Unknown error';
}

export function RouteError() {
  const error = useRouteError();
  if (chunkReloadPending()) {
    return (
      <StatusScreen tone="loading" title="Nature Wall">
        <title>Nature Wall</title>
      </StatusScreen>
    );
  }
  return (
    <StatusScreen
      tone="error"
      title="Something went wrong"
      action={
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      }
    >
      <title>Something went wrong · Nature Wall</title>
      <p>This page could not be shown. Reloading usually brings it back.</p>
      {/* The spec's wording of the router's error (§8), kept as the detail line. */}
      <p className="status-screen__detail">Unexpected Application Error! {describe(error)}</p>
    </StatusScreen>
  );
}
