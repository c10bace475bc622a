/** The router's error page (spec §8): a chunk that failed to load, a render that threw. */
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { StatusScreen } from './StatusScreen.tsx';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

export function RouteError() {
  const error = useRouteError();
  return (
    <StatusScreen
      tone="error"
      title="Unexpected Application Error!"
      action={
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      }
    >
      <title>Error · Nature Wall</title>
      <p>{describe(error)}</p>
    </StatusScreen>
  );
}
