/**
 * What the alert rules watch: the conditions that hold now. Walls and kiosks come from the hub's
 * presence; streams, discovery runs and analyses are other modules' rows, read through their
 * owners' functions (tests/architecture/foreign-reads.test.ts).
 */
import type { EntityManager } from '../../db.ts';
import { screenKey } from '../../realtime/presence.ts';
import { failureRate, type AlertKind } from '../../shared/alerts/incidents.ts';
import type { ScreenPresence } from '../../shared/api/screens.ts';
import { failingAccounts } from '../auth/login-alarms.ts';
import { failedDiscoveries } from '../discovery/discovery.service.ts';
import { groupNames } from '../programme/programme.service.ts';
import { analysisFailures } from '../quality/quality.service.ts';
import { unhealthyStreams } from '../streams/stream-reads.ts';
import type { AlertRule } from './alerts.entity.ts';

/** The analysis failure rate is taken over the last hour. */
const ANALYSIS_WINDOW_MS = 3_600_000;

export interface Condition {
  rule: AlertRule;
  subject: string;
  title: string;
  detail: string | null;
  /** When it began, when known. */
  since?: number;
}

/** What the watch asks beyond the database. */
export interface WatchSources {
  /** Every screen, online and recently seen (the hub's presence, cluster-wide). */
  listScreens: () => Promise<{ screens: ScreenPresence[]; partial: boolean }>;
  /** Streams walls and kiosks show right now. */
  onScreens: () => Promise<ReadonlySet<number>>;
  /** Whether the newest good backup is older than two periods (the backups module's). */
  backupStaleness: (now: Date) => Promise<{ stale: boolean; newestAt: Date | null; periodMs: number | null }>;
  now: () => number;
}

export interface Gathered {
  conditions: Condition[];
  /** Kinds that could not be looked at this time: their incidents are kept as they are. */
  unknown: Set<AlertKind>;
}

/** The conditions the enabled `rules` see now. */
export async function gather(em: EntityManager, rules: AlertRule[], sources: WatchSources): Promise<Gathered> {
  const conditions: Condition[] = [];
  const unknown = new Set<AlertKind>();
  const ofKind = (kind: AlertKind) => rules.filter((r) => r.kind === kind);

  const screenRules = ofKind('screen_offline');
  if (screenRules.length > 0) {
    const offline = await screensOffline(em, screenRules, sources);
    if (offline) conditions.push(...offline);
    else unknown.add('screen_offline');
  }
  const [streamRule] = ofKind('stream_unhealthy');
  if (streamRule) conditions.push(...(await streamsUnhealthy(em, streamRule, sources)));
  const [discoveryRule] = ofKind('discovery_failed');
  if (discoveryRule) conditions.push(...(await discoveriesFailed(em, discoveryRule)));
  const [analysisRule] = ofKind('analysis_failures');
  if (analysisRule) conditions.push(...(await analysesFailing(em, analysisRule, sources.now())));
  const [loginRule] = ofKind('login_failures');
  if (loginRule) conditions.push(...(await signInsFailing(em, loginRule, sources.now())));
  const [backupRule] = ofKind('backup_stale');
  if (backupRule) conditions.push(...(await backupStale(backupRule, sources)));
  return { conditions, unknown };
}

/** Walls and kiosks offline, each under its group's rule or the building-wide one; null when a node did not answer. */
async function screensOffline(em: EntityManager, rules: AlertRule[], sources: WatchSources): Promise<Condition[] | null> {
  const list = await sources.listScreens();
  if (list.partial) return null;
  const general = rules.find((r) => r.groupId === null || r.groupId === undefined);
  const byGroup = new Map(rules.filter((r) => r.groupId != null).map((r) => [r.groupId!, r]));
  // Walls and kiosks with a lasting identity: a visitor's browser is no screen to watch.
  const watched = list.screens.filter((s) => !s.online && s.device && (s.kind === 'wall' || s.kind === 'kiosk'));
  const groupIds = [...new Set(watched.flatMap((s) => (s.group_id !== null ? [s.group_id] : [])))];
  const groups = groupIds.length > 0 ? await groupNames(em, groupIds) : new Map<number, string>();
  const conditions: Condition[] = [];
  for (const screen of watched) {
    const rule = (screen.group_id !== null ? byGroup.get(screen.group_id) : undefined) ?? general;
    if (!rule) continue;
    const name = screen.name ?? `${screen.kind === 'wall' ? 'Wall' : `Kiosk ${screen.position ?? ''}`.trim()} ${screen.device!.slice(0, 6)}`;
    const group = screen.group_id !== null ? groups.get(screen.group_id) : undefined;
    conditions.push({
      rule,
      subject: `screen:${screenKey(screen)}`,
      title: `Screen "${name}" is offline`,
      detail: `${screen.kind === 'wall' ? 'A wall' : 'A kiosk'}${group ? ` in group "${group}"` : ''}, last seen ${screen.last_heartbeat} (node ${screen.node}).`,
      // The hub's sighting, on the hub's clock: stepIncident never starts it later than its now.
      since: Date.parse(screen.last_heartbeat),
    });
  }
  return conditions;
}

/** Offline or degraded streams that screens still show. */
async function streamsUnhealthy(em: EntityManager, rule: AlertRule, sources: WatchSources): Promise<Condition[]> {
  const unhealthy = await unhealthyStreams(em, [...(await sources.onScreens())]);
  return unhealthy.map((stream) => {
    const faults = stream.healthFaults.length ? ` (${stream.healthFaults.join(', ')})` : '';
    return {
      rule,
      subject: `stream:${stream.id}`,
      title: `Stream "${stream.name}" is ${stream.health} on a wall`,
      detail: `It is still shown: no healthy stream could replace it${faults}.`,
      ...(stream.healthChangedAt ? { since: stream.healthChangedAt.getTime() } : {}),
    };
  });
}

/** Sources whose latest finished run failed: an incident until a run of it succeeds. */
async function discoveriesFailed(em: EntityManager, rule: AlertRule): Promise<Condition[]> {
  return (await failedDiscoveries(em)).map((run) => ({
    rule,
    subject: `source:${run.sourceId}`,
    title: `Discovery of "${run.sourceName}" failed`,
    detail: run.error ?? null,
    since: run.finishedAt.getTime(),
  }));
}

/** The last hour's analysis failure rate, at or over the rule's threshold (50 % unless set). */
async function analysesFailing(em: EntityManager, rule: AlertRule, now: number): Promise<Condition[]> {
  const { failed, total } = await analysisFailures(em, now, ANALYSIS_WINDOW_MS);
  const rate = failureRate(failed, total);
  const threshold = rule.threshold ?? 50;
  if (rate === null || rate * 100 < threshold) return [];
  return [
    {
      rule,
      subject: 'analysis',
      title: `Quality analyses are failing: ${Math.round(rate * 100)} % in the last hour`,
      detail: `${failed} of ${total} analyses in the last hour could not run (threshold ${threshold} %).`,
    },
  ];
}

/** Accounts whose sign-ins fail from many addresses within the last 15 minutes (auth/login-alarms.ts). */
async function signInsFailing(em: EntityManager, rule: AlertRule, now: number): Promise<Condition[]> {
  return (await failingAccounts(em, now)).map((account) => ({
    rule,
    subject: `login:${account.username}`,
    title: `Sign-ins to "${account.username}" are failing from many addresses`,
    detail: `Last failure ${account.lastAt.toISOString()}. Browsers that never signed in to it may try once every few seconds; its own browsers are not affected.`,
    since: account.since.getTime(),
  }));
}

/** The newest good backup, older than two periods of BACKUP_CRON (none at all is the console's to say: no backup has run yet). */
async function backupStale(rule: AlertRule, sources: WatchSources): Promise<Condition[]> {
  const { stale, newestAt, periodMs } = await sources.backupStaleness(new Date(sources.now()));
  if (!stale || !newestAt || periodMs === null) return [];
  const hours = Math.round((sources.now() - newestAt.getTime()) / 3_600_000);
  return [
    {
      rule,
      subject: 'backup',
      title: `The newest good backup is ${hours} h old`,
      detail: `It finished ${newestAt.toISOString()}; backups are due every ${Math.round(periodMs / 3_600_000)} h. The Backups tab in the console shows why the last ones failed.`,
      since: newestAt.getTime() + 2 * periodMs,
    },
  ];
}
