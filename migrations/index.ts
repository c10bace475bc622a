/**
 * Every migration, in order. `npm run migration:create -- <name>` prints the lines to add here,
 * so the migrator never depends on file globbing (same code from source, tests and container).
 */
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122154720_init } from './Migration20261122154720_init.ts';
import { Migration20261122161350_realtime } from './Migration20261122161350_realtime.ts';
import { Migration20261122165025_auth } from './Migration20261122165025_auth.ts';
import { Migration20261123034630_console } from './Migration20261123034630_console.ts';
import { Migration20261123040324_submissions } from './Migration20261123040324_submissions.ts';
import { Migration20261123090000_discovery } from './Migration20261123090000_discovery.ts';
import { Migration20261123100000_quality } from './Migration20261123100000_quality.ts';
import { Migration20261123110000_evaluation } from './Migration20261123110000_evaluation.ts';
import { Migration20261123200000_intake } from './Migration20261123200000_intake.ts';
import { Migration20261123210000_offline_fill } from './Migration20261123210000_offline_fill.ts';
import { Migration20261123220000_stream_table } from './Migration20261123220000_stream_table.ts';
import { Migration20261123230000_one_search } from './Migration20261123230000_one_search.ts';
import { Migration20261124150000_stream_playback } from './Migration20261124150000_stream_playback.ts';
import { Migration20261124160000_programme } from './Migration20261124160000_programme.ts';
import { Migration20261124170000_daylight } from './Migration20261124170000_daylight.ts';
import { Migration20261124180000_health_faults } from './Migration20261124180000_health_faults.ts';
import { Migration20261124190000_stream_stills } from './Migration20261124190000_stream_stills.ts';
import { Migration20261124191000_uptime } from './Migration20261124191000_uptime.ts';
import { Migration20261124192000_alerts } from './Migration20261124192000_alerts.ts';
import { Migration20261124200000_team } from './Migration20261124200000_team.ts';
import { Migration20261125210000_activity } from './Migration20261125210000_activity.ts';
import { Migration20261125220000_judgements } from './Migration20261125220000_judgements.ts';
import { Migration20261126020000_plays } from './Migration20261126020000_plays.ts';
import { Migration20261127140000_trusted_devices } from './Migration20261127140000_trusted_devices.ts';
import { Migration20261127150000_login_alerts } from './Migration20261127150000_login_alerts.ts';
import { Migration20261127170000_enrolment } from './Migration20261127170000_enrolment.ts';
import { Migration20261127180000_play_refusals } from './Migration20261127180000_play_refusals.ts';
import { Migration20261127190000_play_assignments } from './Migration20261127190000_play_assignments.ts';
import { Migration20261127200000_backups } from './Migration20261127200000_backups.ts';
import { Migration20261127220000_play_rollups } from './Migration20261127220000_play_rollups.ts';
import { Migration20261127230000_judgement_history } from './Migration20261127230000_judgement_history.ts';

export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122154720_init', class: Migration20261122154720_init },
  { name: 'Migration20261122161350_realtime', class: Migration20261122161350_realtime },
  { name: 'Migration20261122165025_auth', class: Migration20261122165025_auth },
  { name: 'Migration20261123034630_console', class: Migration20261123034630_console },
  { name: 'Migration20261123040324_submissions', class: Migration20261123040324_submissions },
  { name: 'Migration20261123090000_discovery', class: Migration20261123090000_discovery },
  { name: 'Migration20261123100000_quality', class: Migration20261123100000_quality },
  { name: 'Migration20261123110000_evaluation', class: Migration20261123110000_evaluation },
  { name: 'Migration20261123200000_intake', class: Migration20261123200000_intake },
  { name: 'Migration20261123210000_offline_fill', class: Migration20261123210000_offline_fill },
  { name: 'Migration20261123220000_stream_table', class: Migration20261123220000_stream_table },
  { name: 'Migration20261123230000_one_search', class: Migration20261123230000_one_search },
  { name: 'Migration20261124150000_stream_playback', class: Migration20261124150000_stream_playback },
  { name: 'Migration20261124160000_programme', class: Migration20261124160000_programme },
  { name: 'Migration20261124170000_daylight', class: Migration20261124170000_daylight },
  { name: 'Migration20261124180000_health_faults', class: Migration20261124180000_health_faults },
  { name: 'Migration20261124190000_stream_stills', class: Migration20261124190000_stream_stills },
  { name: 'Migration20261124191000_uptime', class: Migration20261124191000_uptime },
  { name: 'Migration20261124192000_alerts', class: Migration20261124192000_alerts },
  { name: 'Migration20261124200000_team', class: Migration20261124200000_team },
  { name: 'Migration20261125210000_activity', class: Migration20261125210000_activity },
  { name: 'Migration20261125220000_judgements', class: Migration20261125220000_judgements },
  { name: 'Migration20261126020000_plays', class: Migration20261126020000_plays },
  { name: 'Migration20261127140000_trusted_devices', class: Migration20261127140000_trusted_devices },
  { name: 'Migration20261127150000_login_alerts', class: Migration20261127150000_login_alerts },
  { name: 'Migration20261127170000_enrolment', class: Migration20261127170000_enrolment },
  { name: 'Migration20261127180000_play_refusals', class: Migration20261127180000_play_refusals },
  { name: 'Migration20261127190000_play_assignments', class: Migration20261127190000_play_assignments },
  { name: 'Migration20261127200000_backups', class: Migration20261127200000_backups },
  { name: 'Migration20261127220000_play_rollups', class: Migration20261127220000_play_rollups },
  { name: 'Migration20261127230000_judgement_history', class: Migration20261127230000_judgement_history },
];
