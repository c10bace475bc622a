/**
 * The server's clock, as screens estimate it and as flip instants are written: wall-clock ms
 * read through the monotonic clock (the process's start time plus elapsed time), so a step of
 * the system clock while the server runs cannot move a scheduled flip. Nodes of a cluster agree
 * as far as their system clocks did at start (NTP keeps a LAN within a millisecond or two).
 */
import { performance } from 'node:perf_hooks';

export const serverNow = (): number => performance.timeOrigin + performance.now();

/**
 * How long after a commit screens show a change, unless SCENE_FLIP_LEAD_MS says otherwise: long
 * enough for the push to reach a thousand walls and for each to load the incoming streams'
 * first pictures, short enough that an operator's click still feels immediate (README, "Walls
 * in step", has the measurements behind it).
 */
export const DEFAULT_FLIP_LEAD_MS = 800;
