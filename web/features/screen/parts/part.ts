/**
 * A screen is a list of parts. The session (../session.ts) is the core — it registers, keeps the
 * server's clock and folds pushes into the store, and the flip scheduler shows them at their
 * instant — and everything else a wall or kiosk does is a part of one shape: whether this screen
 * runs it, the store atoms it follows, the reports it sends (src/shared/reports.ts), and what it
 * does when the session starts, when a registration is answered, and when the session stops.
 * Adding one is a file and a line in ./index.ts; the session loops over the list, as the console
 * loops over its live slices (web/features/admin/<feature>/<x>.live.ts).
 */
import type { Atom } from 'jotai';
import type { Ack, Registration, RegistrationAnswer, ServerToClientEvents } from '../../../../src/shared/events.ts';
import type { AnswerOf, ReportName, ReportOf } from '../../../../src/shared/reports.ts';
import { store } from '../../../lib/store.ts';

/** The screen a session runs, as its parts see it. */
export interface ScreenSession<R extends ReportName = never> {
  /** What the page registers as (what it follows, its kind and position). */
  page: Registration;
  /** What it registered as: the page's registration with its device id, name and group. */
  registration: Registration;
  /** This browser's lasting id (null where storage is blocked). */
  device: string | null;
  /** Whether its address installs it as a screen (`?name=` or `?group=`): a visitor's browser on the public viewer is not one. */
  installed: boolean;
  /** How often the page registers again on an open socket (the kiosk's safety net), if at all. */
  resyncEveryMs: number | undefined;
  /** Whether the hub has answered this connection's registration (reports before that are not sent). */
  registered(): boolean;
  /** Registers again on the open socket; the answer is folded in like any (`quiet`: a refusal is not shown as the screen's error). */
  register(options?: { quiet?: boolean }): void;
  /** Sends one of the part's reports, unanswered (nothing goes out before registration). */
  report<K extends R>(name: K, report: ReportOf<K>): void;
  /** Sends one of the part's reports and resolves with its answer (or an error: refused, not registered, no answer in time). */
  ask<K extends R>(name: K, report: ReportOf<K>, timeoutMs: number): Promise<Ack<AnswerOf<K>>>;
  /** Hears a push of the hub's (an operator's command…); the returned function stops hearing it. */
  listen<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): () => void;
}

/** What a started part is told, and how it is stopped (each optional). */
export interface PartRun {
  /** One of the atoms it follows changed (and once right after it started). */
  changed?(): void;
  /**
   * A registration was answered: the hub knows this screen afresh (a new connection has none of its
   * reports; a re-registration keeps only those that do not depend on what it registered for): send yours again.
   */
  registered?(answer: RegistrationAnswer): void;
  stop?(): void;
}

export interface ScreenPart<R extends ReportName = never> {
  name: string;
  /** Whether this screen runs it (default: every wall and kiosk page). */
  runs?(session: ScreenSession): boolean;
  /** The store's atoms it follows. */
  follows?: readonly Atom<unknown>[];
  /** The reports it sends: the only ones `session.report` and `session.ask` take from it. */
  reports?: readonly R[];
  start(session: ScreenSession<R>): PartRun;
}

/** A part, whatever reports it sends (the list's type). */
export type AnyScreenPart = ScreenPart<ReportName>;

/** Declares a part, keeping its reports' types. */
export function definePart<R extends ReportName = never>(part: ScreenPart<R>): AnyScreenPart {
  return part as unknown as AnyScreenPart;
}

/** The session as one part sees it: it may send only the reports it declares. */
function scoped(part: AnyScreenPart, session: ScreenSession<ReportName>): ScreenSession<ReportName> {
  const allowed = new Set<string>(part.reports ?? []);
  const check = (name: string) => {
    if (!allowed.has(name)) throw new Error(`The screen part "${part.name}" sends "${name}" reports, which it does not declare`);
  };
  return {
    ...session,
    report: (name, report) => {
      check(name);
      session.report(name, report);
    },
    ask: (name, report, timeoutMs) => {
      check(name);
      return session.ask(name, report, timeoutMs);
    },
  };
}

/** Runs one part's hook; a part that throws is reported, and neither the core nor the other parts stop for it. */
function guarded(part: AnyScreenPart, hook: string, call: () => void): void {
  try {
    call();
  } catch (error) {
    console.error(`The screen part "${part.name}" failed in ${hook}`, error);
  }
}

/** Starts every part this screen runs; the returned object is the session's hook into all of them. */
export function startParts(parts: readonly AnyScreenPart[], session: ScreenSession<ReportName>): { registered(answer: RegistrationAnswer): void; stop(settle?: () => void): void } {
  const running = parts
    .filter((part) => part.runs?.(session) ?? true)
    .flatMap((part) => {
      let run: PartRun | undefined;
      guarded(part, 'start', () => (run = part.start(scoped(part, session))));
      if (!run) return [];
      const changed = run.changed && (() => guarded(part, 'changed', () => run!.changed!()));
      const unsubscribe = changed ? (part.follows ?? []).map((followed) => store.sub(followed, changed)) : [];
      changed?.();
      return [{ part, run, unsubscribe }];
    });
  return {
    registered: (answer) => running.forEach(({ part, run }) => run.registered && guarded(part, 'registered', () => run.registered!(answer))),
    /**
     * The parts stop hearing the store first; then `settle` runs (the session finishes a flip in
     * progress, which no part then takes for a change of its own); then each part stops, seeing
     * what is shown at the end.
     */
    stop(settle) {
      running.forEach(({ unsubscribe }) => unsubscribe.forEach((off) => off()));
      settle?.();
      running.forEach(({ part, run }) => run.stop && guarded(part, 'stop', () => run.stop!()));
    },
  };
}
