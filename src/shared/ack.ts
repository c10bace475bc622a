/**
 * Acknowledgements: data, or a readable error. `retryAfterMs` marks a passing failure (the
 * database is away): the client asks again after that long. `refused: 'credential'`: a screen's
 * credential is unknown, revoked or expired — it forgets it and asks for a pairing code.
 */
export type Ack<T> = { data: T } | { error: string; retryAfterMs?: number; refused?: 'credential' };
