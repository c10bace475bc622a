/**
 * A feature module is one declaration (`defineModule`) in its own folder: what it adds to the
 * app — entities, the settings it reads from the environment, routes, pushes to screens and
 * consoles, what it hears from screens, reactions to committed changes, background jobs,
 * metrics — and the API other modules may use. The composition root (src/app.ts) loops over
 * the list (src/modules/index.ts); adding a module adds one line there and nothing else.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Metric } from 'prom-client';
import type { z } from 'zod';
import type { DatabaseAvailability } from '../database/availability.ts';
import type { EntityClass, EntityManager, Orm } from '../db.ts';
import type { DomainChange } from '../domain/changes.ts';
import type { CommandDeps, CommandJournal } from '../domain/command.ts';
import type { Actor, AppState } from '../http/context.ts';
import type { Limits } from '../http/rate-limit.ts';
import type { SafeFetcher } from '../http/safe-fetch.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import type { ScreenList } from '../realtime/presence.ts';
import type { FeaturePushes } from '../realtime/pushes.ts';
import type { Authorize } from '../realtime/registration.ts';
import type { Admit } from '../realtime/admission.ts';
import type { FeatureReports } from '../realtime/reports.ts';
import type { ScreenFeatureFactory } from '../realtime/screen-feature.ts';
import type { PresenceJournal } from '../realtime/presence.ts';
import type { ScreenCommandName } from '../shared/api/screens.ts';

/**
 * A module's settings: the environment variables it reads (each a zod schema of the raw text)
 * and how they become its settings. src/config.ts reads the environment into whatever settings
 * the modules it is handed declare; the README's Configuration table lists every variable.
 */
export interface SettingsDefinition<S> {
  env: Record<string, z.ZodType>;
  /** From the parsed variables (each its schema's output) to the settings. */
  read(env: Record<string, unknown>): S;
}

/** What a module does after every commit on this node (it must not throw, and must not wait). */
export interface Reaction {
  /** What it does, in a few words (docs/architecture.md walks them by these names). */
  name: string;
  on(changes: readonly DomainChange[]): void;
}

/** A module's background work on the job queue: started once the app runs, stopped at shutdown. */
export interface ModuleJobs {
  start(): Promise<void>;
  stop(): void;
}

/** The hub's screens as modules see them (late-bound: the hub attaches after the modules). */
export interface ScreensOnHub {
  /** Every connected screen on every node (and those seen in the last day, on request). */
  list(options?: { includeOffline?: boolean }): Promise<ScreenList>;
  /** Tells one screen (a connection id) or every wall and kiosk to reload or identify itself. */
  command(command: ScreenCommandName, id?: string): void;
  /** Ends the live sockets of a session (a logout, a disabled account). */
  disconnectSession(sessionHash: string): void;
  /** Ends every socket in this room on every node (a revoked screen: it reconnects and is refused). */
  dismiss(room: string): void;
  /** An account's role or state changed: its open consoles ask who they are again. */
  notifyAccount(accountId: number): void;
}

/** Who is asking, for the access guard and the socket policy (the auth module's). */
export interface Identity {
  actorOf(em: EntityManager, credentials: { cookie?: string | undefined; authorization?: string | undefined }): Promise<Actor | null>;
  /** Whether a socket may register as it asks (consoles need an account). */
  authorizeSocket: Authorize;
  /** Enforces each endpoint's declared access on /api (and refuses a route that declares none). */
  guard(api: Router<AppState>, allowedOrigins: readonly string[]): Middleware<AppState>;
}

/** What every module's background work on the queue needs (present when the app has a queue). */
export interface JobContext {
  orm: Orm;
  queue: JobQueue;
  commands: CommandDeps;
  fetcher: SafeFetcher;
  logger: Logger;
  /** Whether this node works jobs (JOBS_ENABLED); every node can still queue them. */
  work: boolean;
  heartbeatSeconds: number;
}

export interface ModuleContext<S> {
  orm: Orm;
  logger: Logger;
  /** This module's settings (its SettingsDefinition's, or a test's). */
  settings: S;
  /** What commands need: the publisher of committed changes and the activity journal. */
  commands: CommandDeps;
  fetcher: SafeFetcher;
  /** Rate limits in this node's store (memory, PostgreSQL or Redis). */
  limits: Limits;
  /** The job queue and what work on it needs; undefined where the app runs without one (what needs it answers 503). */
  jobs: JobContext | undefined;
  availability: DatabaseAvailability;
  /** The clock the rules that wait read (tests move it). */
  now: () => number;
  screens: ScreensOnHub;
  /** The API of a module set up earlier in the list. */
  use<A>(module: AnyModule<A>): A;
}

export interface ModuleDefinition<S, A> {
  name: string;
  entities?: readonly EntityClass[];
  settings?: SettingsDefinition<S>;
  /** The module's API: what other modules (and its own routes, jobs and pushes) use. */
  setup?(context: ModuleContext<S>): A;
  routes?(context: ModuleContext<S>, api: A): Router<AppState>[];
  pushes?(context: ModuleContext<S>, api: A): FeaturePushes;
  reports?(context: ModuleContext<S>, api: A): FeatureReports | undefined;
  reactions?(context: ModuleContext<S>, api: A): Reaction[];
  jobs?(context: ModuleContext<S>, api: A): ModuleJobs | undefined;
  /** The module's own metrics (counters it touches, gauges read when scraped), registered by the app. */
  metrics?(context: ModuleContext<S>, api: A): readonly Metric[];
  /** What walls and kiosks show (one module: the programme's). */
  screens?(context: ModuleContext<S>, api: A): ScreenFeatureFactory;
  /** Which browsers are screens (one module: the screens module's enrolment). */
  admission?(context: ModuleContext<S>, api: A): Admit;
  /** Where the hub remembers screens beyond their connection (one module: the screens module's). */
  presenceJournal?(context: ModuleContext<S>, api: A): PresenceJournal;
  /** The journal every command writes (one module: activity's). */
  journal?: CommandJournal;
  /** Who is asking (one module: auth's). */
  identity?(context: ModuleContext<S>, api: A): Identity;
}

/** Several pieces of background work as one (started in order, all stopped). */
export function allJobs(...jobs: readonly (ModuleJobs | undefined)[]): ModuleJobs {
  const present = jobs.filter((j): j is ModuleJobs => j !== undefined);
  return {
    start: async () => {
      for (const job of present) await job.start();
    },
    stop: () => present.forEach((job) => job.stop()),
  };
}

/** Declares a module, keeping its settings' and API's types. */
export function defineModule<S = undefined, A = undefined>(module: ModuleDefinition<S, A>): ModuleDefinition<S, A> {
  return module;
}

/** Any module, whatever its settings (what its users see is its API). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a module's settings type is its own business
export type AnyModule<A = any> = ModuleDefinition<any, A>;
