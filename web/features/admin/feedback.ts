/** How the console reports: every failure as a toast with the spec's sentence and the server's reason. */
import { toast } from 'sonner';
import { ApiError } from '../../lib/api.ts';
import { reasonOf } from '../../lib/errors.ts';

export { reasonOf };

export function showFailure(what: string, error: unknown): void {
  toast.error(what, { description: reasonOf(error) });
}

export function showSuccess(what: string): void {
  toast.success(what, { duration: 4000 });
}

/** The server's sentence for a client error (409, 400…), or `fallback` for anything else. */
export function serverSentence(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;
}
