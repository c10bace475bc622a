import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/**
 * JSON logs on stdout, one object per line, everywhere (containers, files, CI); redacts
 * credentials wherever they appear. `pretty` (a person at a terminal: `npm start`): the same
 * records as readable lines (pino-pretty), time first, without the fields every line repeats.
 */
export function createLogger(level: string, destination?: DestinationStream, options: { pretty?: boolean } = {}): Logger {
  const settings = {
    level,
    base: { service: 'nature-wall' },
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  };
  if (options.pretty) {
    return pino(settings, pretty({ destination: destination ?? 1, colorize: !destination, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service', singleLine: true, sync: true }));
  }
  return destination ? pino(settings, destination) : pino(settings);
}

/** A line that must not be missed at a terminal (the first admin's password), framed. */
export function framed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return [rule, ...lines.map((l) => `| ${l.padEnd(width)} |`), rule].join('\n');
}
