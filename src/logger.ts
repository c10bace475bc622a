import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout, one object per line; redacts credentials wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'nature-wall' },
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  });
}
