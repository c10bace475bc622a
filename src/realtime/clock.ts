/**
 * The server's clock, as screens estimate it and as flip instants are written: wall-clock ms
 * read through the monotonic clock (the process's start time plus elapsed time), so a step of
 * the system clock while the server runs cannot move a scheduled flip. Nodes of a cluster agree
 * as far as their system clocks did at start (NTP keeps a LAN within a millisecond or two).
 */
import { performance } from 'node:perf_hooks';

export const serverNow = (): number => performance.timeOrigin + performance.now();

