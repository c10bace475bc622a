/** How the plays feature hears screens' proof of play (src/realtime/reports.ts): kept, and counted by verdict. */
import type { Orm } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import type { FeatureReports } from '../../realtime/reports.ts';
import { playRecordsTotal } from './plays.metrics.ts';
import { recordPlays, type PlaySettings } from './plays.service.ts';

export function playsKeeper(deps: { orm: Orm; logger: Logger; settings: PlaySettings; now: () => number }): FeatureReports {
  return {
    name: 'plays',
    async onPlays({ screen, records }) {
      const verdicts = await recordPlays(deps.orm.em.fork(), screen, records, deps.settings, deps.now());
      const count = { kept: 0, clipped: 0, refused: 0 };
      for (const verdict of verdicts) {
        playRecordsTotal.inc({ verdict });
        if (verdict === 'kept') count.kept++;
        else if (verdict === 'clipped') count.clipped++;
        else count.refused++;
      }
      if (count.refused > 0) deps.logger.warn({ device: screen.device, verdicts: verdicts.filter((v) => v !== 'kept' && v !== 'clipped') }, 'proof of play: records refused');
      return { ...count, verdicts };
    },
  };
}
