/**
 * Acknowledgements: data, or a readable error. `retryAfterMs` marks a passing failure (the
 * database is away): the client asks again after that long.
 */
export type Ack<T> = { data: T } | { error: string; retryAfterMs?: number };
