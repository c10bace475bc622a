/** Logs a person can read at a terminal, JSON everywhere else (src/logger.ts). */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, framed } from '../../src/logger.ts';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('the logger', () => {
  it('writes one JSON object per line by default, credentials redacted', () => {
    const out = capture();
    createLogger('info', out.stream).info({ password: 'hunter2-hunter2' }, 'signed in');
    const record = JSON.parse(out.text().trim()) as Record<string, unknown>;
    expect(record).toMatchObject({ msg: 'signed in', service: 'nature-wall', password: '[redacted]' });
  });

  it('writes readable lines at a terminal: the level and the message, no JSON, no repeated fields', () => {
    const out = capture();
    createLogger('info', out.stream, { pretty: true }).warn({ username: 'admin' }, 'First start: created admin');
    const line = out.text();
    expect(() => JSON.parse(line)).toThrow();
    expect(line).toMatch(/WARN.*First start: created admin/);
    expect(line).toContain('username');
    expect(line).not.toContain('nature-wall');
  });

  it('frames a line that must not be missed', () => {
    expect(framed(['Password: abc', 'Change it'])).toBe(['+---------------+', '| Password: abc |', '| Change it     |', '+---------------+'].join('\n'));
  });
});
