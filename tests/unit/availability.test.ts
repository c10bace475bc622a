import { describe, expect, it } from 'vitest';
import { DatabaseAvailability, DatabaseUnavailableError, isDatabaseUnavailable } from '../../src/database/availability.ts';
import { createLogger } from '../../src/logger.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** An error PostgreSQL itself sent (pg's DatabaseError carries its severity). */
const fromServer = (code: string, severity: string, message: string) => Object.assign(new Error(message), { code, severity });

describe('isDatabaseUnavailable: connection failures, not query failures', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED'), true],
    ['connection reset', withCode('ECONNRESET'), true],
    ['admin shutdown (57P01)', withCode('57P01', 'terminating connection due to administrator command'), true],
    ['starting up (57P03)', withCode('57P03', 'the database system is starting up'), true],
    ['connection exception class 08', withCode('08006'), true],
    ['too many connections', withCode('53300'), true],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect'), true],
    ['terminated connection', new Error('Connection terminated unexpectedly'), true],
    ['wrapped in a cause', new Error('query failed', { cause: withCode('ECONNREFUSED') }), true],
    ['our own error', new DatabaseUnavailableError(), true],
    ['unique violation', withCode('23505', 'duplicate key'), false],
    ['a NUL in a statement (08P01 sent as ERROR)', fromServer('08P01', 'ERROR', 'invalid message format'), false],
    ['a NUL in a parameter (22021)', fromServer('22021', 'ERROR', 'invalid byte sequence for encoding "UTF8": 0x00'), false],
    ['a statement timeout (57014)', fromServer('57014', 'ERROR', 'canceling statement due to statement timeout'), false],
    ['a statement error wrapped by the ORM', new Error('query failed', { cause: fromServer('08P01', 'ERROR', 'invalid message format') }), false],
    ['admin shutdown sent as FATAL', fromServer('57P01', 'FATAL', 'terminating connection due to administrator command'), true],
    ['too many connections sent as FATAL', fromServer('53300', 'FATAL', 'sorry, too many clients already'), true],
    ['a server crash (PANIC)', fromServer('XX000', 'PANIC', 'could not write to file'), true],
    ['syntax error', withCode('42601'), false],
    ['a plain bug', new TypeError('undefined is not a function'), false],
    ['not an error', 'ECONNREFUSED', false],
    ['null', null, false],
  ])('%s', (_rule, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});

describe('DatabaseAvailability', () => {
  it('marks an outage once, fails fast during it, and recovers on the first good probe', async () => {
    let up = false;
    const availability = new DatabaseAvailability({
      probe: async () => {
        if (!up) throw withCode('ECONNREFUSED');
      },
      logger: createLogger('silent'),
      retryMs: 0,
      watchMs: 0,
    });
    let recovered = 0;
    availability.onRecovered(() => recovered++);
    expect(availability.available).toBe(true);
    expect(availability.noteFailure(withCode('23505'))).toBe(false);
    expect(availability.available).toBe(true);
    expect(availability.noteFailure(withCode('ECONNREFUSED'))).toBe(true);
    expect(availability.available).toBe(false);
    expect(() => availability.assertAvailable()).toThrow(DatabaseUnavailableError);
    expect(await availability.check()).toBe(false);
    expect(recovered).toBe(0);
    up = true;
    expect(await availability.check()).toBe(true);
    expect(availability.available).toBe(true);
    expect(recovered).toBe(1);
    expect(await availability.check()).toBe(true);
    expect(recovered).toBe(1);
    availability.stop();
  });
});
