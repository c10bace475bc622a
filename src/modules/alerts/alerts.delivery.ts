/**
 * Deliveries. A message that must go out is a row (what is sent, fixed at once) and a job on the
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
import type { Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import { SafeFetchError, type SafeFetcher } from '../../http/safe-fetch.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import { AlertDelivery, AlertDestination, AlertIncident, type AlertRule } from './alerts.entity.ts';
import { fileDelivery } from './alerts.service.ts';
import { messageFiler, messageOf, SYSTEM_ACTOR } from './alerts.stepping.ts';
import { bodyFor, formatDuration, headersFor, type AlertMessage } from './payloads.ts';

export const DELIVERY_QUEUE = 'alert-delivery';

export interface DeliverySettings {
  /** Attempts per message before it is marked failed. */
  attempts: number;
  /** The first retry's delay; each next one doubles (with jitter), up to retryDelayMaxSeconds. */
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
}

export interface DeliveryDeps {
  orm: Orm;
  queue: JobQueue;
  commands: CommandDeps;
  fetcher: SafeFetcher;
  logger: Logger;
  settings: DeliverySettings;
  availability: DatabaseAvailability;
  now: () => number;
}

export interface Deliveries {
  /** Creates (or retunes) the delivery queue. */
  createQueue(): Promise<void>;
  /** Starts this node's delivery worker. */
  work(): Promise<void>;
  /** Queues the jobs of committed deliveries. */
  queueJobs(deliveries: readonly Pick<AlertDelivery, 'id' | 'jobId'>[]): Promise<void>;
  /** Deliveries committed whose job never reached the queue (the node stopped in between): queued again, once. */
  requeueStranded(): Promise<void>;
  /** Keeps what the outage fallback needs while the database is away (read at every check). */
  remember(rules: AlertRule[], destinations: AlertDestination[]): void;
  /** The database is away: past the rule's period, tell the remembered destinations directly. */
  watchOutage(): void;
  /** The database is back: the outage watched (if any) becomes an incident on record. */
  recordOutage(): Promise<void>;
  /** Direct sends stop retrying. */
  stop(): void;
}

interface Attempt {
  ok: boolean;
  /** Not worth trying again (the address is refused). */
  final: boolean;
  statusCode: number | null;
  answer: string;
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

interface DirectSend {
  destination: AlertDestination;
  attempt: Attempt;
  attempts: number;
}

export function createDeliveries(deps: DeliveryDeps): Deliveries {
  const { orm, queue, fetcher, logger, settings, now } = deps;
  const node = `${os.hostname()}:${process.pid}`;
  let stopped = false;
  let lastRules: AlertRule[] = [];
  let lastDestinations: AlertDestination[] = [];
  let outage: { since: number; error: string; fired: number | null; sends: Promise<DirectSend[]> | null } | null = null;

  async function queueJobs(deliveries: readonly Pick<AlertDelivery, 'id' | 'jobId'>[]): Promise<void> {
    for (const delivery of deliveries) {
      await queue.send(DELIVERY_QUEUE, { deliveryId: delivery.id }, { id: delivery.jobId });
    }
  }

  async function requeueStranded(): Promise<void> {
    const stranded = await orm.em.fork().find(AlertDelivery, { state: 'pending', attempts: 0, createdAt: { $lt: new Date(now() - 60_000) } }, { limit: 100 });
    await queueJobs(stranded);
  }

  async function deliver(deliveryId: number): Promise<void> {
    const em = orm.em.fork();
    const delivery = await em.findOne(AlertDelivery, { id: deliveryId });
    if (!delivery || delivery.state !== 'pending') return; // done already (a job retried after it finished)
    const destination = delivery.destinationId ? await em.findOne(AlertDestination, { id: delivery.destinationId }) : null;
    const attempt: Attempt = destination ? await post(fetcher, destination, delivery.message) : { ok: false, final: true, statusCode: null, answer: 'The destination was deleted' };
    const attempts = delivery.attempts + 1;
    const final = attempt.ok || attempt.final || attempts >= settings.attempts;
    await runCommand(em, deps.commands, SYSTEM_ACTOR, async (tx, changes) => {
      await tx.nativeUpdate(AlertDelivery, { id: deliveryId }, {
        attempts,
        statusCode: attempt.statusCode,
        answer: attempt.answer,
        state: attempt.ok ? 'sent' : final ? 'failed' : 'pending',
        finishedAt: final ? new Date(now()) : null,
      });
      changes.push({ type: 'delivery.changed', deliveryId, transient: true });
    });
    if (!attempt.ok && final) logger.warn({ deliveryId, destination: delivery.destinationName, answer: attempt.answer }, 'alert delivery failed');
    // Thrown, the queue tries again after its backoff.
    if (!final) throw new Error(`Attempt ${attempts} of ${settings.attempts} failed: ${attempt.answer}`);
  }

  // ---- the database's own outage -----------------------------------------------------------

  async function sendDirect(destination: AlertDestination, message: AlertMessage): Promise<DirectSend> {
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
    // The availability watch stamps its own clock: an outage never begins later than the watch's now.
    outage ??= { since: Math.min(down.since, now()), error: down.error, fired: null, sends: null };
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

  async function recordOutage(): Promise<void> {
    const ended = outage;
    outage = null;
    if (!ended || ended.fired === null) return;
    const sends = (await ended.sends) ?? [];
    const rule = lastRules.find((r) => r.kind === 'database_unavailable');
    if (!rule) return;
    const at = now();
    const filed: AlertDelivery[] = [];
    await runCommand(orm.em.fork(), deps.commands, SYSTEM_ACTOR, async (tx, changes) => {
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
        const delivery = fileDelivery(tx, changes, destination, { ...messageOf(incident, 'fired', ended.fired!), resolved_at: null }, at);
        Object.assign(delivery, { state: attempt.ok ? 'sent' : 'failed', attempts, statusCode: attempt.statusCode, answer: `${attempt.answer} (sent directly while the database was away)`, finishedAt: new Date(ended.fired!) });
      }
      await messageFiler(tx, changes, filed, at)(messageOf(incident, 'recovered', at));
      await tx.flush();
    });
    await queueJobs(filed);
  }

  return {
    async createQueue() {
      // The row's own count decides when to give up; the queue's limit only has to reach it.
      // A retry is not announced by NOTIFY: workers poll for due retries every second.
      const options = { retryLimit: settings.attempts, retryDelay: settings.retryDelaySeconds, retryBackoff: true, retryDelayMax: settings.retryDelayMaxSeconds, expireInSeconds: 60, deleteAfterSeconds: 7 * 86_400, notify: true };
      await queue.createQueue(DELIVERY_QUEUE, options);
      await queue.updateQueue(DELIVERY_QUEUE, { retryLimit: options.retryLimit, retryDelay: options.retryDelay, retryBackoff: true, retryDelayMax: options.retryDelayMax, notify: true });
    },
    async work() {
      await queue.work<{ deliveryId: number }>(DELIVERY_QUEUE, { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 }, async ([job]) => {
        if (job) await deliver(job.data.deliveryId);
      });
    },
    queueJobs,
    requeueStranded,
    remember(rules, destinations) {
      lastRules = rules;
      lastDestinations = destinations;
    },
    watchOutage,
    recordOutage,
    stop() {
      stopped = true;
    },
  };
}
