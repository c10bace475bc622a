/** How the plays feature hears screens' proof of play (src/realtime/reports.ts): kept, and counted by verdict. */
import type { Orm } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import type { FeatureReports } from '../../realtime/reports.ts';
import { playRecordsTotal } from './plays.metrics.ts';
import { recordPlays, type PlaySettings } from './plays.service.ts';

export interface PlaysKeeper extends FeatureReports {
  /** Records refused or clipped on this node since it started (the console shows it beside the totals). */
  refused(): number;
}

export function playsKeeper(deps: { orm: Orm; logger: Logger; settings: PlaySettings; now: () => number }): PlaysKeeper {
  let refused = 0;
  return {
    name: 'plays',
    refused: () => refused,
    async onPlays({ screen, records }) {
      const verdicts = await recordPlays(deps.orm.em.fork(), screen, records, deps.settings, deps.now());
      const count = { kept: 0, clipped: 0, refused: 0 };
      for (const verdict of verdicts) {
        playRecordsTotal.inc({ verdict });
        if (verdict === 'kept') count.kept++;
        else if (verdict === 'clipped') count.clipped++;
        else count.refused++;
      }
      refused += count.clipped + count.refused;
      if (count.refused > 0) deps.logger.warn({ device: screen.device, verdicts: verdicts.filter((v) => v !== 'kept' && v !== 'clipped') }, 'proof of play: records refused');
      return { ...count, verdicts };
    },
  };
}
