/**
 * Domain errors: what a service says when a request cannot be carried out. Services throw
 * these, never HTTP errors; the API's error middleware maps them (404, 409, 400), and a socket
 * handler or a job can read the same message.
 */
export type DomainErrorKind = 'not-found' | 'conflict' | 'invalid' | 'unprocessable';

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  constructor(kind: DomainErrorKind, message: string) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
  }
}

export const notFound = (message: string) => new DomainError('not-found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
/** Input that passed the schema but breaks a rule (`"<field>: <message>"`). */
export const invalid = (message: string) => new DomainError('invalid', message);
/** Well-formed input the server could not make sense of (a page with no reachable content). */
export const unprocessable = (message: string) => new DomainError('unprocessable', message);
