/**
 * createApp(deps): the Koa application with every route mounted, and the scene controller
 * (hub) ready to attach — no listen: the server entry and the tests mount it on an HTTP
 * server of their own. This is where modules meet the hub: the scenes module's directory is
 * handed to it, and every route's writes go through its publisher.
 */
import Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import compress from 'koa-compress';
import { DatabaseAvailability } from './database/availability.ts';
import type { EntityManager, Orm } from './db.ts';
import { Drain } from './http/drain.ts';
import type { Actor, AppContext, AppState } from './http/context.ts';
import { createCallerLimits, createLimiter, type LimiterStore } from './http/rate-limit.ts';
import { refuseUnservedMethods } from './http/protocol.ts';
import { securityHeaders } from './http/security-headers.ts';
import { authRouter, type AuthRouteDeps } from './modules/auth/auth.routes.ts';
import { accessGuard } from './modules/auth/guard.ts';
import { resolveActor, type Credentials } from './modules/auth/identity.ts';
import { assertEveryRouteDeclared, SOCKET_POLICY } from './modules/auth/policy.ts';
import { denial } from './shared/roles.ts';
import { errorHandler, HttpError, notFound } from './http/errors.ts';
import { requestLog } from './http/request-log.ts';
import { readBuildId, webApp } from './http/web.ts';
import { metricsEndpoint, requestMetrics } from './http/metrics.ts';
import { gaugeSources } from './metrics.ts';
import { jobCounts } from './jobs/queue.ts';
import { createWebHints } from './http/web-hints.ts';
import type { Logger } from './logger.ts';
import { defaultSceneRouter } from './modules/scenes/default-scene.routes.ts';
import { discoveryRouter, type DiscoveryRouteDeps } from './modules/discovery/discovery.routes.ts';
import { DEFAULT_PLATFORM_SETTINGS, type PlatformSettings } from './modules/platforms/settings.ts';
import { discoveryPushes } from './modules/discovery/discovery.changes.ts';
import { createDiscoveryJobs, type DiscoveryJobs, type DiscoveryJobsDeps } from './modules/discovery/discovery.jobs.ts';
import { DEFAULT_JOB_SETTINGS, type JobQueue, type JobSettings } from './jobs/queue.ts';
import { qualityPushes } from './modules/quality/quality.changes.ts';
import { createQualityJobs, DEFAULT_QUALITY_SETTINGS, type QualityJobs, type QualitySettings } from './modules/quality/quality.jobs.ts';
import { qualityRouter, type QualityRouteDeps } from './modules/quality/quality.routes.ts';
import { evaluationPushes } from './modules/evaluation/evaluation.changes.ts';
import { evaluationRouter, type EvaluationRouteDeps } from './modules/evaluation/evaluation.routes.ts';
import { createScoreKeeper, type ScoreKeeper } from './modules/evaluation/score-keeper.ts';
import { submissionPushes } from './modules/submissions/submission.changes.ts';
import { submissionsRouter, type SubmissionRouteDeps } from './modules/submissions/submissions.routes.ts';
import { createSafeFetcher, type Resolver } from './http/safe-fetch.ts';
import { healthRouter } from './modules/health/health.routes.ts';
import { scenesRouter, type SceneRouteDeps } from './modules/scenes/scenes.routes.ts';
import { sceneUse } from './modules/programme/programme.service.ts';
import { createScreenRouter } from './modules/programme/screen-routing.ts';
import { createProgrammeJobs, type ProgrammeJobs } from './modules/programme/programme.jobs.ts';
import { createDaylightJobs, movesCrossing, type DaylightJobs } from './modules/scenes/daylight.jobs.ts';
import { PROGRAMME_CHANGES } from './modules/programme/programme.changes.ts';
import { DEFAULT_FLIP_LEAD_MS, screenFeature } from './modules/programme/screen-feature.ts';
import { programmeRouter } from './modules/programme/programme.routes.ts';
import { programmePushes } from './modules/programme/programme.changes.ts';
import { streamsRouter } from './modules/streams/streams.routes.ts';
import type { DomainChange } from './domain/changes.ts';
import type { CommandDeps } from './domain/command.ts';
import { ChangeBus } from './domain/change-bus.ts';
import { activityPushes } from './modules/activity/activity.changes.ts';
import { alertPushes } from './modules/alerts/alerts.changes.ts';
import { createAlertJobs, DEFAULT_ALERT_SETTINGS, type AlertJobs, type AlertSettings } from './modules/alerts/alerts.jobs.ts';
import { alertsRouter, type AlertRouteDeps } from './modules/alerts/alerts.routes.ts';
import { openIncidents } from './modules/alerts/alerts.presenter.ts';
import { teamRouter, type TeamRouteDeps } from './modules/auth/team.routes.ts';
import { activityRouter } from './modules/activity/activity.routes.ts';
import { activityJournal } from './modules/activity/activity.service.ts';
import { screenJournal } from './modules/screens/screen-journal.ts';
import { systemRouter } from './modules/system/system.routes.ts';
import { docsRouter } from './modules/docs/docs.routes.ts';
import { weatherRouter, type WeatherRouteDeps } from './modules/weather/weather.routes.ts';
import { createWeather, type WeatherOptions } from './modules/weather/weather.service.ts';
import { createHub, type Hub, type HubOptions } from './realtime/hub.ts';
import type { FeaturePushes } from './realtime/pushes.ts';
import type { FeatureReports } from './realtime/reports.ts';
import { qualityReports } from './modules/quality/quality.reports.ts';
import type { SceneDirectory } from './modules/scenes/scene-directory.ts';
import { pushVersions } from './realtime/versions.ts';
import { scenePushes } from './modules/scenes/scene.changes.ts';
import { streamPushes } from './modules/streams/stream.changes.ts';
import { createSceneDirectory } from './modules/scenes/scene-directory.ts';
import { screensRouter, type ScreensDeps } from './modules/screens/screens.routes.ts';
import { streamsOnScreens } from './modules/screens/streams-on-screens.ts';
import { SceneSnapshots } from './modules/scenes/scene-snapshots.ts';

export interface AppDeps {
  orm: Orm;
  logger: Logger;
  /** Folder of the built web app; omitted in API-only tests. */
  webDist?: string;
  /** Sees every committed change before it is pushed (tests). */
  onChanges?: (changes: readonly DomainChange[]) => void;
  /** ADMIN_API_TOKEN: a bearer token with admin rights for scripts and CI. */
  adminApiToken?: string | undefined;
  /** Browser origins besides our own (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /** SCENE_FLIP_LEAD_MS: schedule boundaries are queued this long early, so screens switch at the boundary. */
  flipLeadMs?: number;
  /** The clock schedules and daylight scenes read (tests control it; Date.now otherwise). */
  now?: () => number;
  /** METRICS_TOKEN: `GET /metrics` answers with it as a bearer token (off without it). */
  metricsToken?: string | undefined;
  /** Where rate-limit counters live (memory unless several nodes share them). */
  limiterStore?: LimiterStore;
  /** TRUST_PROXY: client IP and protocol from X-Forwarded-* headers. */
  trustProxy?: boolean;
  /** Probe periods of the database availability watch (tests shorten them). */
  availability?: { retryMs?: number; watchMs?: number };
  /** FETCH_ALLOW_HOSTS: hosts the safe fetcher may reach although they are not public (tests' fixtures). */
  fetchAllowHosts?: readonly string[];
  /** WEATHER_API_KEY, WEATHER_ENABLED, WEATHER_BASE_URL (absent: weather is not configured). */
  weather?: WeatherOptions;
  /** How the safe fetcher resolves names (tests: an offline resolver, so no test ever reaches out). */
  fetchResolver?: Resolver;
  /** More features' pushes besides the built-in ones (tests plug in a feature of their own). */
  features?: readonly FeaturePushes[];
  /** More features that hear screens' reports (tests plug in one of their own). */
  reports?: readonly FeatureReports[];
  /** The background-job queue (pg-boss); without it discovery runs answer 503. */
  queue?: JobQueue;
  /** How jobs run on this node (JOBS_*, DISCOVERY_CONCURRENCY). */
  jobs?: JobSettings;
  /** Discovery's platform credentials and base URLs. */
  platforms?: PlatformSettings;
  /** Quality analysis: concurrency, re-analysis period, re-check delay, ffmpeg paths. */
  quality?: QualitySettings;
  /** Alerts: how often conditions are looked at, delivery attempts and backoff (ALERT_CHECK_SECONDS). */
  alerts?: AlertSettings;
  /** How long ratings must be quiet before scores are recomputed (ms; tests shorten it). */
  evaluationDebounceMs?: number;
  /** Rater requests per minute per client IP (tests lower it to reach the limit). */
  evaluationRequestsPerMinute?: number;
  /** Discovery job tuning for tests: reconcile period, rate-limit waits. */
  discoveryTuning?: Pick<DiscoveryJobsDeps, 'reconcileMs' | 'sleep' | 'requestTimeoutMs'>;
}

/** What the routes share: the command deps (publisher, journal), the scene cache, the hub's screens, limits, the safe fetcher. */
interface Services extends AuthRouteDeps, TeamRouteDeps, AlertRouteDeps, ScreensDeps, DiscoveryRouteDeps, QualityRouteDeps, EvaluationRouteDeps, SubmissionRouteDeps, WeatherRouteDeps, SceneRouteDeps {
  commands: CommandDeps;
}

/** The /api router with every module's routes, exposed for tools that list the routes. */
export function apiRouter(services: Services): Router<AppState> {
  const api = new Router<AppState>({ prefix: '/api' });
  for (const router of [
    docsRouter(() => api),
    streamsRouter(services),
    scenesRouter(services),
    defaultSceneRouter(services),
    discoveryRouter(services),
    qualityRouter(services),
    evaluationRouter(services),
    submissionsRouter(services),
    screensRouter(services),
    programmeRouter(services),
    authRouter(services),
    teamRouter(services),
    activityRouter(),
    alertsRouter(services),
    systemRouter(services),
    weatherRouter(services),
  ]) {
    api.use(router.routes());
  }
  return api;
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

export interface NatureWall {
  koa: Koa<AppState>;
  /** The /api router (its route table is what the access policy must cover). */
  api: Router<AppState>;
  directory: SceneDirectory;
  /** Whether the database answers; API calls answer 503 while it does not. */
  availability: DatabaseAvailability;
  /** Starts the scene controller on an HTTP server; from then on every change is pushed. */
  attachHub(options: Omit<HubOptions, 'screens' | 'logger' | 'availability' | 'versions' | 'features' | 'reports' | 'presenceJournal' | 'build'> & { flipLeadMs?: number }): Promise<Hub>;
  /** Starts this node's background work (discovery workers, schedules); a no-op without a queue. */
  startJobs(): Promise<void>;
  /** Discovery's jobs side, when a queue is attached. */
  discoveryJobs: DiscoveryJobs | undefined;
  /** Quality's jobs side, when a queue is attached. */
  qualityJobs: QualityJobs | undefined;
  programmeJobs: ProgrammeJobs | undefined;
  daylightJobs: DaylightJobs | undefined;
  /** Alerts' watch and deliveries, when a queue is attached. */
  alertJobs: AlertJobs | undefined;
  /** Human scores: recomputed after each burst of ratings. */
  scoreKeeper: ScoreKeeper;
  /** The node's drain (SIGTERM): /readyz answers 503, answers close their connections, requests in flight are counted. */
  drain: Drain;
  /** Stops the availability watch and the job timers (the hub, the queue and the ORM are closed by their owners). */
  stop(): void;
}

export function createApp(deps: AppDeps): NatureWall {
  const snapshots = new SceneSnapshots(deps.orm, deps.now ? { now: deps.now } : {});
  const directory = createSceneDirectory(deps.orm, snapshots);
  const allowedOrigins = deps.allowedOrigins ?? [];
  const availability = new DatabaseAvailability({
    probe: () => deps.orm.em.getConnection().execute('select 1'),
    logger: deps.logger,
    ...deps.availability,
  });
  const limiterStore = deps.limiterStore ?? { kind: 'memory' };
  const fetcher = createSafeFetcher({ allowHosts: deps.fetchAllowHosts ?? [], ...(deps.fetchResolver ? { resolver: deps.fetchResolver } : {}) });
  let hub: Hub | undefined;
  // After commit: read-your-writes on this node, the tests' observer, the modules that react to
  // others' changes (registered below), then the hub's fan-out once it is attached.
  const bus = new ChangeBus();
  bus.onCommitted(() => directory.invalidate());
  if (deps.onChanges) bus.onCommitted(deps.onChanges);
  const commands: CommandDeps = { publisher: bus, journal: activityJournal };
  // What every module's background work shares: the queue, the command deps, the safe fetcher.
  const jobSettings = deps.jobs ?? DEFAULT_JOB_SETTINGS;
  const jobBase = deps.queue
    ? { orm: deps.orm, queue: deps.queue, commands, fetcher, platforms: deps.platforms ?? DEFAULT_PLATFORM_SETTINGS, logger: deps.logger }
    : undefined;
  const qualityJobs = jobBase
    ? createQualityJobs({
        ...jobBase,
        settings: deps.quality ?? DEFAULT_QUALITY_SETTINGS,
        work: jobSettings.enabled,
        heartbeatSeconds: jobSettings.heartbeatSeconds,
        streamsOnScreens: streamsOnScreens(async () => (hub ? hub.screens() : { screens: [] }), directory),
      })
    : undefined;
  const discoveryJobs = jobBase
    ? createDiscoveryJobs({
        ...jobBase,
        settings: jobSettings,
        // Discovery's finds are analysed as they come in, one import at a bounded rate.
        onStreamsAdded: (ids, jobId) => {
          void qualityJobs?.enqueueImport(ids, `discovery:${jobId}`).catch((error: unknown) => deps.logger.warn({ err: error, jobId }, 'could not queue the analyses of an import'));
        },
        ...deps.discoveryTuning,
      })
    : undefined;
  if (qualityJobs) bus.onCommitted((changes) => qualityJobs.committed(changes));
  const programmeJobs = jobBase ? createProgrammeJobs({ ...jobBase, flipLeadMs: deps.flipLeadMs ?? DEFAULT_FLIP_LEAD_MS, work: jobSettings.enabled, ...(deps.now ? { now: deps.now } : {}) }) : undefined;
  const daylightJobs = jobBase ? createDaylightJobs({ ...jobBase, snapshots, work: jobSettings.enabled }) : undefined;
  if (daylightJobs) bus.onCommitted((changes) => movesCrossing(changes) && void daylightJobs.sync().catch((err: unknown) => deps.logger.warn({ err }, 'could not queue the next daylight crossing')));
  if (programmeJobs) {
    const steering: ReadonlySet<string> = new Set(PROGRAMME_CHANGES);
    bus.onCommitted((changes) => {
      // A changed schedule or takeover may move the next boundary: queue it (the boundary itself queues the one after).
      if (changes.some((c) => steering.has(c.type) && c.type !== 'schedule.boundary')) void programmeJobs.sync().catch((err: unknown) => deps.logger.warn({ err }, 'could not queue the next schedule boundary'));
    });
  }
  const alertJobs = jobBase
    ? createAlertJobs({
        ...jobBase,
        settings: deps.alerts ?? DEFAULT_ALERT_SETTINGS,
        work: jobSettings.enabled,
        listScreens: async () => (hub ? hub.screens({ includeOffline: true }) : { screens: [], partial: true }),
        onScreens: streamsOnScreens(async () => (hub ? hub.screens() : { screens: [] }), directory),
        availability,
      })
    : undefined;
  const scoreKeeper = createScoreKeeper({ orm: deps.orm, commands, logger: deps.logger, ...(deps.evaluationDebounceMs === undefined ? {} : { debounceMs: deps.evaluationDebounceMs }) });
  const services: Services = {
    snapshots,
    sceneInUse: sceneUse,
    commands,
    discoveryJobs,
    qualityJobs,
    scoreKeeper,
    evaluationLimit: createLimiter(limiterStore, { name: 'evaluation', points: deps.evaluationRequestsPerMinute ?? 240, durationSeconds: 60 }),
    listScreens: async (options) => (hub ? hub.screens(options) : { screens: [], partial: false }),
    commandScreens: (command, id) => hub?.command(command, id),
    linkLimit: createLimiter(limiterStore, { name: 'account-link', points: 30, durationSeconds: 15 * 60 }),
    loginLimits: {
      byIp: createLimiter(limiterStore, { name: 'login-ip', points: 20, durationSeconds: 15 * 60 }),
      byUsername: createLimiter(limiterStore, { name: 'login-user', points: 10, durationSeconds: 15 * 60 }),
    },
    onSessionEnded: (sessionHash) => void hub?.disconnectSession(sessionHash),
    onAccountChanged: (accountId) => hub?.notifyAccount(accountId),
    fetcher,
    queueDelivery: alertJobs?.queueDelivery,
    extractLimit: createCallerLimits(limiterStore, { name: 'extract', anonymousPoints: 30, adminPoints: 600, durationSeconds: 60 }),
    submitLimit: createCallerLimits(limiterStore, { name: 'submit', anonymousPoints: 20, adminPoints: 2000, durationSeconds: 10 * 60 }),
    weather: createWeather(deps.weather ?? { apiKey: undefined, enabled: false, baseUrl: 'https://api.openweathermap.org' }),
    weatherLimit: createLimiter(limiterStore, { name: 'weather', points: 300, durationSeconds: 60 }),
  };
  const actorOf = (em: EntityManager, credentials: Credentials) => resolveActor(em, credentials, deps.adminApiToken);

  // What the metrics' gauges read when scraped (the hub's census is added when it attaches).
  gaugeSources.databaseAvailable = () => availability.available;
  const queue = deps.queue;
  gaugeSources.incidents = () => openIncidents(deps.orm.em.fork());
  if (queue) gaugeSources.jobs = async () => (await jobCounts(queue)).map((r) => ({ labels: { queue: r.queue, state: r.state }, value: r.count }));

  const koa = new Koa<AppState>();
  koa.silent = true; // errors are answered by errorHandler and logged by the request log
  koa.proxy = deps.trustProxy ?? false;
  const drain = new Drain();

  const api = apiRouter(services);
  assertEveryRouteDeclared(api);
  const apiStack = compose<AppContext>([
    errorHandler(availability),
    async (ctx, next) => {
      await next();
      // No route answered: the router left 404, or 405 with an Allow header.
      if (ctx.body !== undefined) return;
      if (ctx.status === 404) throw notFound(`No such endpoint: ${ctx.method} ${ctx.path}`);
      if (ctx.status === 405) throw new HttpError(405, `Method ${ctx.method} is not allowed here`);
    },
    async (ctx, next) => {
      // One EntityManager per request, forked on first use: cached reads never need one.
      let em: EntityManager | undefined;
      // During an outage a request that needs the database fails at once with 503.
      const fork = () => {
        availability.assertAvailable();
        return deps.orm.em.fork();
      };
      Object.defineProperty(ctx.state, 'em', { get: () => (em ??= fork()), configurable: true });
      let actor: Promise<Actor | null> | undefined;
      ctx.state.actor = () => (actor ??= actorOf(ctx.state.em, { cookie: ctx.get('cookie'), authorization: ctx.get('authorization') }));
      await next();
    },
    accessGuard(api, allowedOrigins),
    api.routes(),
    api.allowedMethods(),
  ]);

  koa.use(drain.middleware());
  koa.use(requestLog(deps.logger));
  koa.use(refuseUnservedMethods((path) => (isApiPath(path) ? [...new Set(api.match(path, 'GET').path.flatMap((layer) => layer.methods))] : ['GET', 'HEAD'])));
  koa.use(requestMetrics());
  koa.use(metricsEndpoint(deps.metricsToken));
  koa.use(securityHeaders());
  koa.use(compress({ threshold: 1024 }));
  koa.use(healthRouter({ availability, drain }).routes());
  koa.use((ctx, next) => (isApiPath(ctx.path) ? apiStack(ctx as AppContext, next) : next()));
  if (deps.webDist) koa.use(webApp(deps.webDist, createWebHints({ distDir: deps.webDist, stateFor: async (registration) => (hub ? hub.stateFor(registration) : null) })));

  return {
    koa,
    api,
    directory,
    availability,
    discoveryJobs,
    qualityJobs,
    programmeJobs,
    daylightJobs,
    alertJobs,
    scoreKeeper,
    drain,
    startJobs: async () => {
      await discoveryJobs?.start();
      await qualityJobs?.start();
      await programmeJobs?.start();
      await daylightJobs?.start();
      await alertJobs?.start();
    },
    stop: () => {
      availability.stop();
      discoveryJobs?.stop();
      qualityJobs?.stop();
      daylightJobs?.stop();
      alertJobs?.stop();
      scoreKeeper.stop();
      void fetcher.close();
    },
    async attachHub({ flipLeadMs, ...options }) {
      hub = await createHub({
        allowedOrigins,
        ...options,
        screens: screenFeature({
          router: createScreenRouter({ orm: deps.orm, commands, ...(deps.now ? { now: deps.now } : {}) }),
          directory,
          flipLeadMs: flipLeadMs ?? deps.flipLeadMs ?? DEFAULT_FLIP_LEAD_MS,
        }),
        versions: pushVersions(deps.orm),
        // Each feature's pushes: one line per feature.
        features: [
          streamPushes(deps.orm),
          scenePushes(directory),
          submissionPushes(deps.orm),
          discoveryPushes(deps.orm),
          programmePushes(deps.orm),
          qualityPushes(deps.orm),
          evaluationPushes(deps.orm),
          activityPushes,
          alertPushes(deps.orm),
          ...(deps.features ?? []),
        ],
        presenceJournal: screenJournal(deps.orm, { logger: deps.logger }),
        build: deps.webDist ? readBuildId(deps.webDist) : undefined,
        // What screens report, to the features that asked: one line per feature.
        reports: [...(qualityJobs ? [qualityReports(qualityJobs)] : []), ...(deps.reports ?? [])],
        availability,
        logger: deps.logger,
        // The one socket policy (SOCKET_POLICY): screens are public, the console's room needs an account.
        authorize: async (registration, handshake) => {
          const needed = SOCKET_POLICY[registration.kind];
          if (needed === 'public') return { ok: true };
          const actor = await actorOf(deps.orm.em.fork(), {
            cookie: handshake.headers.cookie,
            authorization: handshake.headers.authorization ?? (typeof handshake.auth.token === 'string' ? `Bearer ${handshake.auth.token}` : undefined),
          });
          const denied = denial(needed, actor?.role ?? null);
          return denied ? { ok: false, error: denied.error } : { ok: true, sessionHash: actor?.sessionHash, accountId: actor?.userId };
        },
      });
      bus.relayTo(hub.publisher);
      const attached = hub;
      gaugeSources.screens = () => attached.census();
      return hub;
    },
  };
}
