/**
 * Alerts' background work.
 *
 * The watch: every ALERT_CHECK_SECONDS each node that works jobs looks at what the rules watch
 * (screens, streams on walls, discovery runs, the analysis failure rate) and steps every
 * incident (src/shared/alerts/incidents.ts). One node at a time does it (a transaction-scoped
 * advisory lock), and an incident's row is unique per rule and subject, so a condition fires
 * once however many nodes run.
 *
 * Deliveries: a message that must go out is a row (what is sent, fixed at once) and a job on the
 * PostgreSQL queue whose id is chosen with the row, so it is queued once. The worker posts it
 * through the safe fetcher; a failed attempt is retried with exponential backoff until the last
 * one marks it failed. Every attempt's answer is logged on the row, and consoles see it live.
 *
 * The database itself: while it is away nothing can be queued or written, so each node watches
 * its own outage in memory and, past the rule's period, posts straight to the destinations it
 * last read; when the database is back it records the incident and those attempts, and queues
 * the recovery like any other message.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseAvailability } from '../../database/availability.ts';
import type { EntityManager, Orm } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import { SafeFetchError, type SafeFetcher } from '../../http/safe-fetch.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import { screenKey } from '../../realtime/presence.ts';
import { failureRate, stepIncident, type AlertKind, type IncidentClock } from '../../shared/alerts/incidents.ts';
import type { ScreenPresence } from '../../shared/api/screens.ts';
import { DiscoverySource } from '../discovery/discovery.entity.ts';
import { ScreenGroup } from '../programme/programme.entity.ts';
import { Stream } from '../streams/stream.entity.ts';
import { AlertDelivery, AlertDestination, AlertIncident, AlertRule } from './alerts.entity.ts';
import { fileDelivery } from './alerts.service.ts';
import { bodyFor, formatDuration, headersFor, type AlertMessage } from './payloads.ts';

export const DELIVERY_QUEUE = 'alert-delivery';
/** pg_try_advisory_xact_lock key: one node steps the incidents at a time. */
const ALERTS_LOCK = 7_361_004;
const ACTOR = 'system';

export interface AlertSettings {
  /** ALERT_CHECK_SECONDS: how often the conditions are looked at. */
  checkSeconds: number;
  /** Attempts per message before it is marked failed. */
  attempts: number;
  /** The first retry's delay; each next one doubles (with jitter), up to retryDelayMaxSeconds. */
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { checkSeconds: 5, attempts: 6, retryDelaySeconds: 10, retryDelayMaxSeconds: 600 };

export interface AlertJobsDeps {
  orm: Orm;
  queue: JobQueue;
  commands: CommandDeps;
  fetcher: SafeFetcher;
  logger: Logger;
  settings: AlertSettings;
  /** Whether this node works jobs (JOBS_ENABLED): the watch and the delivery worker run only then. */
  work: boolean;
  /** Every screen, online and recently seen (the hub's presence, cluster-wide). */
  listScreens: () => Promise<{ screens: ScreenPresence[]; partial: boolean }>;
  /** Streams walls and kiosks show right now. */
  onScreens: () => Promise<ReadonlySet<number>>;
  availability: DatabaseAvailability;
  now?: () => number;
}

export interface AlertJobs {
  start(): Promise<void>;
  stop(): void;
  /** One look at the conditions now (tests step it; the timer calls it). */
  check(): Promise<void>;
  /** Queues the job of a delivery filed by a command (a test message). */
  queueDelivery(delivery: Pick<AlertDelivery, 'id' | 'jobId'>): Promise<void>;
}

interface Condition {
  rule: AlertRule;
  subject: string;
  title: string;
  detail: string | null;
  /** When it began, when known. */
  since?: number;
}

const keyOf = (ruleId: number, subject: string) => `${ruleId}|${subject}`;

function clockOf(incident: AlertIncident): IncidentClock {
  return {
    phase: incident.phase,
    startedAt: incident.startedAt.getTime(),
    firedAt: incident.firedAt?.getTime() ?? null,
    clearedAt: incident.clearedAt?.getTime() ?? null,
    resolvedAt: incident.resolvedAt?.getTime() ?? null,
  };
}

function applyClock(incident: AlertIncident, clock: IncidentClock): void {
  incident.phase = clock.phase;
  incident.startedAt = new Date(clock.startedAt);
  incident.firedAt = clock.firedAt === null ? null : new Date(clock.firedAt);
  incident.clearedAt = clock.clearedAt === null ? null : new Date(clock.clearedAt);
  incident.resolvedAt = clock.resolvedAt === null ? null : new Date(clock.resolvedAt);
}

export function messageOf(incident: AlertIncident, event: 'fired' | 'recovered', now: number): AlertMessage {
  return {
    event,
    incident_id: incident.id,
    kind: incident.kind,
    subject: incident.subject,
    title: incident.title,
    detail: incident.detail ?? null,
    started_at: incident.startedAt.toISOString(),
    fired_at: incident.firedAt?.toISOString() ?? null,
    resolved_at: incident.resolvedAt?.toISOString() ?? null,
    at: new Date(now).toISOString(),
  };
}

/** A receiver's answer, short enough for the log. */
function snippet(body: Buffer): string {
  const text = body.toString('utf8', 0, Math.min(body.length, 500)).replace(/\s+/g, ' ').trim();
  return text || '(empty answer)';
}

function failureText(error: unknown): string {
  if (error instanceof SafeFetchError) {
    if (error.reason === 'blocked') return 'Refused: the address is not public (the safe fetcher does not send to private, local or own addresses)';
    if (error.reason === 'timeout') return 'The receiver did not answer in time';
    return `The receiver could not be reached: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

interface Attempt {
  ok: boolean;
  /** Not worth trying again (the address is refused). */
  final: boolean;
  statusCode: number | null;
  answer: string;
}

/** One POST of a message to a destination through the safe fetcher. */
async function post(fetcher: SafeFetcher, destination: Pick<AlertDestination, 'kind' | 'url' | 'secret'>, message: AlertMessage): Promise<Attempt> {
  const body = bodyFor(destination.kind, message);
  try {
    const response = await fetcher.fetch(destination.url, {
      method: 'POST',
      body,
      headers: headersFor(destination.kind, destination.secret ?? null, body),
      accept: '*/*',
      maxBytes: 64 * 1024,
      truncate: true,
      timeoutMs: 10_000,
    });
    const ok = response.status >= 200 && response.status < 300;
    return { ok, final: false, statusCode: response.status, answer: snippet(response.body) };
  } catch (error) {
    return { ok: false, final: error instanceof SafeFetchError && error.reason === 'blocked', statusCode: null, answer: failureText(error) };
  }
}

export function createAlertJobs(deps: AlertJobsDeps): AlertJobs {
  const { orm, queue, fetcher, logger, settings } = deps;
  const now = deps.now ?? Date.now;
  const node = `${os.hostname()}:${process.pid}`;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let checking: Promise<void> | null = null;
  // What the database watch needs while the database is away: read at every check.
  let lastRules: AlertRule[] = [];
  let lastDestinations: AlertDestination[] = [];
  let outage: { since: number; error: string; fired: number | null; sends: Promise<{ destination: AlertDestination; attempt: Attempt; attempts: number }[]> | null } | null = null;

  async function queueJobs(deliveries: readonly Pick<AlertDelivery, 'id' | 'jobId'>[]): Promise<void> {
    for (const delivery of deliveries) {
      await queue.send(DELIVERY_QUEUE, { deliveryId: delivery.id }, { id: delivery.jobId });
    }
  }

  /**
   * Files messages for every enabled destination (the jobs are queued after commit): one per
   * transaction, which reads the destinations once, when its first message is filed.
   */
  function messageFiler(tx: EntityManager, changes: Changes, filed: AlertDelivery[]): (message: AlertMessage) => Promise<void> {
    let destinations: Promise<AlertDestination[]> | undefined;
    return async (message) => {
      destinations ??= tx.find(AlertDestination, { enabled: true }, { orderBy: { id: 'asc' } });
      for (const destination of await destinations) filed.push(fileDelivery(tx, changes, destination, message));
    };
  }

  // ---- what the rules watch -------------------------------------------------------------------

  /** The conditions that hold now, and the kinds that could not be looked at this time (kept as they are). */
  async function gather(em: EntityManager, rules: AlertRule[]): Promise<{ conditions: Condition[]; unknown: Set<AlertKind> }> {
    const conditions: Condition[] = [];
    const unknown = new Set<AlertKind>();
    const ofKind = (kind: AlertKind) => rules.filter((r) => r.kind === kind);

    const screenRules = ofKind('screen_offline');
    if (screenRules.length > 0) {
      const list = await deps.listScreens();
      if (list.partial) unknown.add('screen_offline');
      else {
        const general = screenRules.find((r) => r.groupId === null || r.groupId === undefined);
        const byGroup = new Map(screenRules.filter((r) => r.groupId != null).map((r) => [r.groupId!, r]));
        const groups = new Map((await em.find(ScreenGroup, {}, { fields: ['id', 'name'] })).map((g) => [g.id, g.name]));
        for (const screen of list.screens) {
          // Walls and kiosks with a lasting identity: a visitor's browser is no screen to watch.
          if (screen.online || !screen.device || (screen.kind !== 'wall' && screen.kind !== 'kiosk')) continue;
          const rule = (screen.group_id !== null ? byGroup.get(screen.group_id) : undefined) ?? general;
          if (!rule) continue;
          const name = screen.name ?? `${screen.kind === 'wall' ? 'Wall' : `Kiosk ${screen.position ?? ''}`.trim()} ${screen.device.slice(0, 6)}`;
          const group = screen.group_id !== null ? groups.get(screen.group_id) : undefined;
          conditions.push({
            rule,
            subject: `screen:${screenKey(screen)}`,
            title: `Screen "${name}" is offline`,
            detail: `${screen.kind === 'wall' ? 'A wall' : 'A kiosk'}${group ? ` in group "${group}"` : ''}, last seen ${screen.last_heartbeat} (node ${screen.node}).`,
            since: Date.parse(screen.last_heartbeat),
          });
        }
      }
    }

    const [streamRule] = ofKind('stream_unhealthy');
    if (streamRule) {
      const shown = [...(await deps.onScreens())];
      const unhealthy = shown.length === 0 ? [] : await em.find(Stream, { id: { $in: shown }, health: { $in: ['offline', 'degraded'] } }, { fields: ['id', 'name', 'health', 'healthChangedAt', 'healthFaults'] });
      for (const stream of unhealthy) {
        const faults = stream.healthFaults?.length ? ` (${stream.healthFaults.join(', ')})` : '';
        conditions.push({
          rule: streamRule,
          subject: `stream:${stream.id}`,
          title: `Stream "${stream.name}" is ${stream.health} on a wall`,
          detail: `It is still shown: no healthy stream could replace it${faults}.`,
          ...(stream.healthChangedAt ? { since: stream.healthChangedAt.getTime() } : {}),
        });
      }
    }

    const [discoveryRule] = ofKind('discovery_failed');
    if (discoveryRule) {
      // Each source's latest finished run: a failure is an incident until a run of it succeeds.
      const latest = await em.execute<{ source_id: number; status: string; error_message: string | null; finished_at: Date }[]>(
        `select distinct on (source_id) source_id, status, error_message, finished_at from discovery_jobs
          where source_id is not null and finished_at is not null order by source_id, finished_at desc`,
      );
      const failed = latest.filter((r) => r.status === 'failed');
      const names = new Map(failed.length ? (await em.find(DiscoverySource, { id: { $in: failed.map((r) => r.source_id) } }, { fields: ['id', 'name'] })).map((s) => [s.id, s.name]) : []);
      for (const run of failed) {
        conditions.push({
          rule: discoveryRule,
          subject: `source:${run.source_id}`,
          title: `Discovery of "${names.get(run.source_id) ?? `source ${run.source_id}`}" failed`,
          detail: run.error_message ?? null,
          since: new Date(run.finished_at).getTime(),
        });
      }
    }

    const [analysisRule] = ofKind('analysis_failures');
    if (analysisRule) {
      const [counts] = await em.execute<{ failed: number; total: number }[]>(
        `select count(*) filter (where error is not null)::int as failed, count(*)::int as total from quality_analyses where created_at > now() - interval '1 hour'`,
      );
      const rate = failureRate(counts?.failed ?? 0, counts?.total ?? 0);
      if (rate !== null && rate * 100 >= (analysisRule.threshold ?? 50)) {
        conditions.push({
          rule: analysisRule,
          subject: 'analysis',
          title: `Quality analyses are failing: ${Math.round(rate * 100)} % in the last hour`,
          detail: `${counts!.failed} of ${counts!.total} analyses in the last hour could not run (threshold ${analysisRule.threshold ?? 50} %).`,
        });
      }
    }
    return { conditions, unknown };
  }

  // ---- stepping incidents ---------------------------------------------------------------------

  async function evaluate(): Promise<void> {
    const em = orm.em.fork();
    const [rules, destinations] = await Promise.all([em.find(AlertRule, {}), em.find(AlertDestination, { enabled: true })]);
    lastRules = rules;
    lastDestinations = destinations;
    const enabled = rules.filter((r) => r.enabled);
    const { conditions, unknown } = await gather(em, enabled);
    const at = now();
    const filed: AlertDelivery[] = [];
    await runCommand(orm.em.fork(), deps.commands, ACTOR, async (tx, changes) => {
      const [lock] = await tx.execute<{ locked: boolean }[]>(`select pg_try_advisory_xact_lock(${ALERTS_LOCK}) as locked`);
      if (!lock?.locked) return; // another node is stepping them right now
      const fileMessage = messageFiler(tx, changes, filed);
      const byRule = new Map(enabled.map((r) => [r.id, r]));
      const holding = new Map(conditions.map((c) => [keyOf(c.rule.id, c.subject), c]));
      const live = await tx.find(AlertIncident, { phase: { $ne: 'resolved' } });
      for (const incident of live) {
        const key = keyOf(incident.ruleId, incident.subject);
        const condition = holding.get(key);
        holding.delete(key);
        if (incident.kind === 'database_unavailable') continue; // recorded whole by the node that saw it
        if (unknown.has(incident.kind)) continue;
        const rule = byRule.get(incident.ruleId);
        if (!rule) {
          // Its rule was turned off or deleted: the incident ends without a message.
          applyClock(incident, { ...clockOf(incident), phase: 'resolved', resolvedAt: at });
          incident.detail = [incident.detail, 'Closed: its rule was turned off.'].filter(Boolean).join(' ');
          changes.push({ type: 'incident.changed', incidentId: incident.id, transient: true });
          continue;
        }
        const step = stepIncident(clockOf(incident), condition !== undefined, at, { for_seconds: rule.forSeconds, hold_seconds: rule.holdSeconds });
        if (step.kind === 'same') continue;
        changes.push({ type: 'incident.changed', incidentId: incident.id, transient: true });
        if (step.kind === 'forget') {
          tx.remove(incident);
          continue;
        }
        applyClock(incident, step.next);
        if (step.send) await fileMessage(messageOf(incident, step.send, at));
      }
      for (const condition of holding.values()) {
        const rule = condition.rule;
        const step = stepIncident(null, true, at, { for_seconds: rule.forSeconds, hold_seconds: rule.holdSeconds }, condition.since);
        if (step.kind !== 'update') continue;
        const incident = tx.create(AlertIncident, {
          ruleId: rule.id,
          kind: rule.kind,
          subject: condition.subject,
          title: condition.title,
          detail: condition.detail,
          phase: step.next.phase,
          startedAt: new Date(step.next.startedAt),
        });
        applyClock(incident, step.next);
        await tx.flush(); // its id goes into the message
        changes.push({ type: 'incident.changed', incidentId: incident.id, transient: true });
        if (step.send) await fileMessage(messageOf(incident, step.send, at));
      }
      await tx.flush();
    });
    await queueJobs(filed);
    await requeueStranded(em);
  }

  /** Deliveries committed whose job never reached the queue (the node stopped in between): queued again, once. */
  async function requeueStranded(em: EntityManager): Promise<void> {
    const stranded = await em.find(AlertDelivery, { state: 'pending', attempts: 0, createdAt: { $lt: new Date(now() - 60_000) } }, { limit: 100 });
    await queueJobs(stranded);
  }

  // ---- the database's own outage -----------------------------------------------------------

  async function sendDirect(destination: AlertDestination, message: AlertMessage) {
    let attempt: Attempt = { ok: false, final: false, statusCode: null, answer: '' };
    let attempts = 0;
    for (let delay = settings.retryDelaySeconds; attempts < Math.min(settings.attempts, 3); delay *= 2) {
      attempts++;
      attempt = await post(fetcher, destination, message);
      if (attempt.ok || attempt.final || stopped) break;
      await sleep(Math.min(delay, 30) * 1000);
    }
    return { destination, attempt, attempts };
  }

  function watchOutage(): void {
    const down = deps.availability.outage;
    if (!down) return;
    outage ??= { since: down.since, error: down.error, fired: null, sends: null };
    const rule = lastRules.find((r) => r.kind === 'database_unavailable' && r.enabled);
    if (!rule || outage.fired !== null || now() - outage.since < rule.forSeconds * 1000) return;
    outage.fired = now();
    const message: AlertMessage = {
      event: 'fired',
      incident_id: null,
      kind: 'database_unavailable',
      subject: `database:${node}`,
      title: `The database is unavailable on node ${node}`,
      detail: `Since ${new Date(outage.since).toISOString()}: ${outage.error}. Screens keep their last scene; changes wait.`,
      started_at: new Date(outage.since).toISOString(),
      fired_at: new Date(outage.fired).toISOString(),
      resolved_at: null,
      at: new Date(outage.fired).toISOString(),
    };
    logger.warn({ node }, 'alert: the database is unavailable; telling the destinations directly');
    outage.sends = Promise.all(lastDestinations.map((d) => sendDirect(d, message)));
  }

  /** The database is back: the outage becomes an incident on record, with its messages, and its recovery is queued. */
  async function recordOutage(): Promise<void> {
    const ended = outage;
    outage = null;
    if (!ended || ended.fired === null) return;
    const sends = (await ended.sends) ?? [];
    const rule = lastRules.find((r) => r.kind === 'database_unavailable');
    if (!rule) return;
    const at = now();
    const filed: AlertDelivery[] = [];
    await runCommand(orm.em.fork(), deps.commands, ACTOR, async (tx, changes) => {
      const incident = tx.create(AlertIncident, {
        ruleId: rule.id,
        kind: 'database_unavailable',
        subject: `database:${node}`,
        title: `The database was unavailable on node ${node}`,
        detail: `For ${formatDuration(at - ended.since)}: ${ended.error}`,
        phase: 'resolved',
        startedAt: new Date(ended.since),
        firedAt: new Date(ended.fired!),
        resolvedAt: new Date(at),
      });
      await tx.flush();
      changes.push({ type: 'incident.changed', incidentId: incident.id, transient: true });
      for (const { destination, attempt, attempts } of sends) {
        const delivery = fileDelivery(tx, changes, destination, { ...messageOf(incident, 'fired', ended.fired!), resolved_at: null });
        Object.assign(delivery, { state: attempt.ok ? 'sent' : 'failed', attempts, statusCode: attempt.statusCode, answer: `${attempt.answer} (sent directly while the database was away)`, finishedAt: new Date(ended.fired!) });
      }
      await messageFiler(tx, changes, filed)(messageOf(incident, 'recovered', at));
      await tx.flush();
    });
    await queueJobs(filed);
  }

  async function check(): Promise<void> {
    if (!deps.availability.available) {
      watchOutage();
      return;
    }
    if (outage) await recordOutage();
    await evaluate();
  }

  // ---- the delivery worker --------------------------------------------------------------------

  async function deliver(deliveryId: number): Promise<void> {
    const em = orm.em.fork();
    const delivery = await em.findOne(AlertDelivery, { id: deliveryId });
    if (!delivery || delivery.state !== 'pending') return; // done already (a job retried after it finished)
    const destination = delivery.destinationId ? await em.findOne(AlertDestination, { id: delivery.destinationId }) : null;
    const attempt: Attempt = destination ? await post(fetcher, destination, delivery.message) : { ok: false, final: true, statusCode: null, answer: 'The destination was deleted' };
    const attempts = delivery.attempts + 1;
    const final = attempt.ok || attempt.final || attempts >= settings.attempts;
    await runCommand(em, deps.commands, ACTOR, async (tx, changes) => {
      await tx.nativeUpdate(AlertDelivery, { id: deliveryId }, {
        attempts,
        statusCode: attempt.statusCode,
        answer: attempt.answer,
        state: attempt.ok ? 'sent' : final ? 'failed' : 'pending',
        finishedAt: final ? new Date() : null,
      });
      changes.push({ type: 'delivery.changed', deliveryId, transient: true });
    });
    if (!attempt.ok && final) logger.warn({ deliveryId, destination: delivery.destinationName, answer: attempt.answer }, 'alert delivery failed');
    // Thrown, the queue tries again after its backoff.
    if (!final) throw new Error(`Attempt ${attempts} of ${settings.attempts} failed: ${attempt.answer}`);
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      checking = check()
        .catch((err: unknown) => {
          if (!deps.availability.noteFailure(err)) logger.warn({ err }, 'alert check failed');
        })
        .finally(() => {
          checking = null;
          schedule();
        });
    }, settings.checkSeconds * 1000);
    timer.unref();
  }

  return {
    async start() {
      // The row's own count decides when to give up; the queue's limit only has to reach it.
      // A retry is not announced by NOTIFY: workers poll for due retries every second.
      const options = { retryLimit: settings.attempts, retryDelay: settings.retryDelaySeconds, retryBackoff: true, retryDelayMax: settings.retryDelayMaxSeconds, expireInSeconds: 60, deleteAfterSeconds: 7 * 86_400, notify: true };
      await queue.createQueue(DELIVERY_QUEUE, options);
      await queue.updateQueue(DELIVERY_QUEUE, { retryLimit: options.retryLimit, retryDelay: options.retryDelay, retryBackoff: true, retryDelayMax: options.retryDelayMax, notify: true });
      if (!deps.work) return;
      await queue.work<{ deliveryId: number }>(DELIVERY_QUEUE, { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 }, async ([job]) => {
        if (job) await deliver(job.data.deliveryId);
      });
      schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      void checking;
    },
    check,
    queueDelivery: (delivery) => queueJobs([delivery]),
  };
}
