/**
 * createApp(deps): the Koa application and the scene controller (hub) ready to attach, made
 * from the list of modules (src/modules/index.ts) — no listen: the server entry and the tests
 * mount it on an HTTP server of their own. Each module is one declaration (src/modules/module.ts);
 * this file sets them up in order and hands their parts to the places that carry them.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { readModuleSettings, type ModuleSettings } from './config.ts';
import { DatabaseAvailability } from './database/availability.ts';
import type { Orm } from './db.ts';
import { ChangeBus } from './domain/change-bus.ts';
import type { DomainChange } from './domain/changes.ts';
import { apiRouter, apiStack, serveApp } from './http/stack.ts';
import { Drain } from './http/drain.ts';
import type { AppState } from './http/context.ts';
import { limitsIn, type LimiterStore } from './http/rate-limit.ts';
import { createSafeFetcher, type Resolver } from './http/safe-fetch.ts';
import { DEFAULT_JOB_SETTINGS, type JobQueue, type JobSettings } from './jobs/queue.ts';
import type { Logger } from './logger.ts';
import { gaugeSources, registerModuleMetric, watchCore } from './metrics.ts';
import { MODULES } from './modules/index.ts';
import type { AnyModule, Identity, ModuleJobs } from './modules/module.ts';
import { screensOnHub, setUpModules } from './modules/runtime.ts';
import { createHub, type Hub, type HubOptions } from './realtime/hub.ts';
import { pushVersions } from './realtime/versions.ts';
import { readBuildId } from './http/web.ts';

export interface AppDeps {
  orm: Orm;
  logger: Logger;
  /** The modules (src/modules/index.ts unless a test adds one of its own). */
  modules?: readonly AnyModule[];
  /** Each module's settings by name (src/config.ts reads them); a module not named gets its defaults. */
  settings?: ModuleSettings;
  webDist?: string; // the built web app; omitted in API-only tests
  onChanges?: (changes: readonly DomainChange[]) => void; // sees every committed change (tests)
  allowedOrigins?: readonly string[]; // ALLOWED_ORIGINS
  now?: () => number; // the clock rules that wait read (schedules, daylight, alerts); tests move it
  metricsToken?: string | undefined; // METRICS_TOKEN
  limiterStore?: LimiterStore; // memory unless several nodes share the counters
  trustProxy?: boolean; // TRUST_PROXY
  availability?: { retryMs?: number; watchMs?: number }; // the database watch's periods (tests shorten them)
  fetchAllowHosts?: readonly string[]; // FETCH_ALLOW_HOSTS (tests' fixtures)
  fetchResolver?: Resolver; // tests: an offline resolver, so no test ever reaches out
  queue?: JobQueue; // pg-boss; without it what needs one answers 503
  jobs?: JobSettings; // JOBS_*
}

export type HubAttachment = Omit<HubOptions, 'screens' | 'logger' | 'availability' | 'versions' | 'features' | 'reports' | 'presenceJournal' | 'build' | 'authorize' | 'admit'>;

export interface NatureWall {
  koa: Koa<AppState>;
  api: Router<AppState>; // its route table is what the access policy must cover
  availability: DatabaseAvailability; // API calls answer 503 while the database does not
  use<A>(module: AnyModule<A>): A; // a module's API (tests step its jobs)
  attachHub(options: HubAttachment): Promise<Hub>; // from then on every change is pushed
  startJobs(): Promise<void>; // this node's workers, timers and schedules
  drain: Drain; // SIGTERM: not ready, answers close their connections, requests in flight counted
  stop(): void; // the availability watch and the modules' timers (the hub, queue and ORM close with their owners)
}

export function createApp(deps: AppDeps): NatureWall {
  const { orm, logger } = deps;
  const modules = deps.modules ?? MODULES;
  const availability = new DatabaseAvailability({ probe: () => orm.em.getConnection().execute('select 1'), logger, ...deps.availability });
  const fetcher = createSafeFetcher({ allowHosts: deps.fetchAllowHosts ?? [], ...(deps.fetchResolver ? { resolver: deps.fetchResolver } : {}) });
  const bus = new ChangeBus(); // after commit: the modules' reactions, the tests' observer, then the hub's fan-out
  let hub: Hub | undefined;
  const commands = { publisher: bus, journal: modules.find((m) => m.journal)?.journal };
  const jobSettings = deps.jobs ?? DEFAULT_JOB_SETTINGS;
  const { use, each } = setUpModules(
    modules,
    {
      orm,
      logger,
      commands,
      fetcher,
      limits: limitsIn(deps.limiterStore ?? { kind: 'memory' }),
      jobs: deps.queue ? { orm, queue: deps.queue, commands, fetcher, logger, work: jobSettings.enabled, heartbeatSeconds: jobSettings.heartbeatSeconds } : undefined,
      availability,
      now: deps.now ?? Date.now,
      screens: screensOnHub(() => hub),
    },
    (module) => deps.settings?.[module.name] ?? readModuleSettings(module),
  );
  for (const reaction of each((m, c, a) => m.reactions?.(c, a)).flat()) bus.onCommitted((changes) => reaction.on(changes));
  if (deps.onChanges) bus.onCommitted(deps.onChanges);
  const jobs: ModuleJobs[] = each((m, c, a) => m.jobs?.(c, a));
  for (const metric of each((m, c, a) => m.metrics?.(c, a)).flat()) registerModuleMetric(metric);
  const identity: Identity | undefined = each((m, c, a) => m.identity?.(c, a))[0];
  watchCore(availability, deps.queue);

  // Behind a proxy, a draining node hands reads back to it (Drain: nginx tries another node).
  const drain = new Drain({ behindProxy: deps.trustProxy ?? false });
  const api = apiRouter(each((m, c, a) => m.routes?.(c, a)).flat());
  const koa = serveApp({
    api: apiStack({ api, orm, availability, actorOf: identity?.actorOf, guard: identity?.guard(api, deps.allowedOrigins ?? []) }),
    apiRouter: api,
    availability,
    drain,
    logger,
    trustProxy: deps.trustProxy ?? false,
    metricsToken: deps.metricsToken,
    webDist: deps.webDist,
    stateFor: async (registration) => (hub ? hub.stateFor(registration) : null),
  });

  return {
    koa,
    api,
    availability,
    drain,
    use,
    startJobs: async () => {
      for (const job of jobs) await job.start();
    },
    stop: () => {
      availability.stop();
      for (const job of jobs) job.stop();
      void fetcher.close();
    },
    async attachHub(options) {
      const screenFeature = each((m, c, a) => m.screens?.(c, a))[0];
      if (!screenFeature) throw new Error('No module says what screens show (a module with `screens`)');
      const journal = each((m, c, a) => m.presenceJournal?.(c, a))[0];
      const admit = each((m, c, a) => m.admission?.(c, a))[0];
      hub = await createHub({
        allowedOrigins: deps.allowedOrigins ?? [],
        ...options,
        screens: screenFeature,
        versions: pushVersions(orm),
        features: each((m, c, a) => m.pushes?.(c, a)),
        reports: each((m, c, a) => m.reports?.(c, a)),
        ...(journal ? { presenceJournal: journal } : {}),
        ...(identity ? { authorize: identity.authorizeSocket } : {}),
        ...(admit ? { admit } : {}),
        build: deps.webDist ? readBuildId(deps.webDist) : undefined,
        availability,
        logger,
      });
      bus.relayTo(hub.publisher);
      const attached = hub;
      gaugeSources.screens = () => attached.census();
      return hub;
    },
  };
}
