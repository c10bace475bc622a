/**
 * Hardening headers on every response (helmet): a Content-Security-Policy that runs scripts
 * from our origin only, frames only the stream hosts the player allows, no plugins, no <base>,
 * and no framing of our pages by others. Stream media and HLS segments come from any host the
 * admins add, so media and fetches may go to any http(s) origin.
 */
import helmet from 'koa-helmet';
import type { Middleware } from 'koa';
import { FRAME_HOSTS } from '../shared/streams/url.ts';

export function securityHeaders(): Middleware {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        mediaSrc: ["'self'", 'blob:', 'https:', 'http:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        frameSrc: FRAME_HOSTS.map((host) => `https://${host}`),
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    // Embedded players (YouTube, Twitch) refuse to play in a cross-origin-isolated page.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  }) as Middleware;
}
