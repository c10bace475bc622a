/**
 * Proof of play as screens report it (`screen:plays`, src/shared/api/plays.ts): who may send it
 * (src/shared/plays.ts `playScreen`: a wall, or a kiosk at its position, with a device id), kept
 * after the rules (against what the screen was assigned), counted by verdict, and answered only once kept — the screen drops its records
 * then, and sends them again otherwise.
 */
import type { Orm } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import { declareReport, type AnyReportDeclaration } from '../../realtime/reports.ts';
import { PlayReport } from '../../shared/api/plays.ts';
import { PLAY_CLOCK_TOLERANCE_MS, playScreen } from '../../shared/plays.ts';
import type { AssignmentLog } from './play-assignments.ts';
import { playRecordsTotal } from './plays.metrics.ts';
import { recordPlays, type PlaySettings } from './plays.service.ts';

const screenOf = (screen: { kind: string; device: string | null; shows: { position: number | null } }) => playScreen({ ...screen, position: screen.shows.position });

/**
 * How far a record may run past its assignment: a screen told late flips up to a flip lead late,
 * and flips on its estimate of the server's clock — off by up to its reported bound (taken as
 * PLAY_CLOCK_TOLERANCE_MS, the most believed, until it reports one). In whole milliseconds, rounded
 * up: screens report their bound with a fraction, and a clipped record's bounds are stored as integers.
 */
export function playSlackMs(flipLeadMs: number, clock: { error_ms: number } | null): number {
  return Math.ceil(flipLeadMs + Math.min(clock?.error_ms ?? PLAY_CLOCK_TOLERANCE_MS, PLAY_CLOCK_TOLERANCE_MS));
}

export function playsReport(deps: { orm: Orm; logger: Logger; settings: PlaySettings; now: () => number; assignments: AssignmentLog; flipLeadMs: number }): AnyReportDeclaration {
  return declareReport({
    name: 'plays',
    title: 'proof-of-play',
    schema: PlayReport,
    from: ['wall', 'kiosk'],
    refuse(screen) {
      // A public viewer (approval on, no credential) writes nothing.
      if (!screen.counted) return 'Proof of play is for approved screens; this browser is not one';
      // A kiosk mid-registration does not know its position yet: its records wait for the next send.
      if (screen.kind === 'kiosk' && screen.shows.position === null) return 'Registering; send it again shortly';
      return screenOf(screen) ? null : 'Proof of play is for walls and kiosks with a device id';
    },
    failure: 'Proof of play could not be kept; send it again later',
    async receive({ records }, screen) {
      const counted = screenOf(screen)!;
      const playing = { device: counted.key, name: screen.name, kind: screen.kind as 'wall' | 'kiosk', position: screen.kind === 'kiosk' ? screen.shows.position : null };
      // What this node told screens a moment ago is in the history before the records are judged.
      await deps.assignments.flush();
      const verdicts = await recordPlays(deps.orm.em.fork(), playing, records, deps.settings, deps.now(), playSlackMs(deps.flipLeadMs, screen.kept('clock')));
      const count = { kept: 0, clipped: 0, refused: 0 };
      for (const verdict of verdicts) {
        playRecordsTotal.inc({ verdict });
        if (verdict === 'kept') count.kept++;
        else if (verdict === 'clipped') count.clipped++;
        else count.refused++;
      }
      if (count.refused > 0) deps.logger.warn({ device: counted.key, verdicts: verdicts.filter((v) => v !== 'kept' && v !== 'clipped') }, 'proof of play: records refused');
      return { ...count, verdicts };
    },
  });
}
