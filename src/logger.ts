import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout, one object per line; redacts credentials wherever they appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'nature-wall' },
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
