/**
 * How screens' reports reach features — the extension point beside pushes (pushes.ts). A report
 * is named, with what it carries and what it is answered, in the shared contract
 * (src/shared/reports.ts); the feature that owns it declares here the rest, once: the schema it
 * is checked against, who may send it, whether its latest value is kept on the screen (admins see
 * it with the screen), and what the owner does with it (its answer is the acknowledgement). Other
 * features may hear a declared report too. The hub validates any declared report, checks who
 * sent it, and hands it on; it names none, and is not edited to plug one in.
 */
import type { z } from 'zod';
import type { Shows } from './notice.ts';
import type { ScreenKind, ScreenPresence } from '../shared/api/screens.ts';
import type { AnswerOf, Noted, ReportName, ReportOf } from '../shared/reports.ts';

/** Who reported. */
export interface ReportingScreen {
  /** The connection id (commands go to it). */
  id: string;
  kind: ScreenKind;
  device: string | null;
  name: string | null;
  /** What it shows and why, as the screen feature decided it. */
  shows: Shows;
  /** A screen (approved, or approval is off) — not a public viewer, whose reports never move the server. */
  counted: boolean;
  /** What it last said in a kept report (null: nothing yet), whoever declared it. */
  kept<K extends ReportName>(name: K): KeptValue<K> | null;
}

/**
 * What is kept of a report, by its name: the field of the screen as admins see it
 * (`ScreenPresence` in src/shared/api/screens.ts, the contract of GET /api/screens) — so a kept
 * value is named and typed by that contract, and a report no field names cannot be kept.
 */
export type KeptValue<K extends ReportName> = K extends keyof ScreenPresence ? NonNullable<ScreenPresence[K]> : never;

/** The fields of a screen that are the hub's own: no report is kept under them. */
const CORE_FIELDS = ['id', 'device', 'online', 'kind', 'name', 'enrolled_id', 'follows', 'scene_id', 'group_id', 'rule', 'position', 'connected_at', 'last_heartbeat', 'node'] as const;
/** Socket events of the hub's own: no report travels on them. */
const CORE_REPORTS = ['register'];

/** A report whose latest value says how the screen is now: kept on the screen's presence, under the report's name. */
export interface KeptReport<K extends ReportName> {
  /** What is kept of a report (null: it says nothing now — as before any report). */
  value(report: ReportOf<K>): KeptValue<K> | null;
  /** What the screen's presence says before any report (null: not reported). */
  empty: KeptValue<K> | null;
  /** Whether a new value is news for the admins' list (default: it differs). */
  changed?(before: KeptValue<K> | null, after: KeptValue<K> | null): boolean;
  /** What it says depends on what the screen registered for: a new registration starts without it. */
  perRegistration?: boolean;
}

interface DeclarationBase<K extends ReportName> {
  name: K;
  /** In the hub's answers: "Invalid <title> report". */
  title: string;
  /** What the report must be (from the shared contract). */
  schema: z.ZodType<ReportOf<K>>;
  /** The kinds of registered screen that may send it. */
  from: readonly ScreenKind[];
  /** The rest of who may send it: the sentence to answer when this screen may not (yet), else null. */
  refuse?(screen: ReportingScreen): string | null;
  /** Only a report the screen's presence names (KeptValue) can be kept. */
  keep?: K extends keyof ScreenPresence ? KeptReport<K> : never;
  /** The answer when `receive` fails for another reason than the database being away. */
  failure?: string;
}

/**
 * What the owner does with each report it accepts (on the node the screen is connected to):
 * its answer is the acknowledgement's data; a promise makes the acknowledgement wait for it. A
 * report that is only kept needs none (answered `{ ok: true }`).
 */
export type ReportDeclaration<K extends ReportName> = DeclarationBase<K> &
  (AnswerOf<K> extends Noted
    ? { receive?(report: ReportOf<K>, screen: ReportingScreen): void }
    : { receive(report: ReportOf<K>, screen: ReportingScreen): AnswerOf<K> | Promise<AnswerOf<K>> });

/** Another feature hearing a report (after it was accepted and kept); must not throw, must not wait. */
export interface ReportListener<K extends ReportName> {
  report: K;
  /** `before`: the value kept for this screen before this report (null: none, or the report is not kept). */
  hear(report: ReportOf<K>, screen: ReportingScreen, before: KeptValue<K> | null): void;
}

/** A declaration or a listener, whatever its report (what the hub loops over). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each one is typed where it is declared (declareReport, hearReport)
export type AnyReportDeclaration = ReportDeclaration<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export type AnyReportListener = ReportListener<any>;

/** A report declared with its types checked against the contract. */
export function declareReport<K extends ReportName>(declaration: ReportDeclaration<K>): AnyReportDeclaration {
  return declaration as AnyReportDeclaration;
}

/** A report heard, with its types checked against the contract and the value its owner keeps. */
export function hearReport<K extends ReportName>(listener: ReportListener<K>): AnyReportListener {
  return listener as AnyReportListener;
}

/** What a feature says about reports: those it owns, and those of others it hears. */
export interface FeatureReports {
  /** A name for logs. */
  name: string;
  declares?: readonly AnyReportDeclaration[];
  hears?: readonly AnyReportListener[];
}

/** Each declared report with the listeners that hear it, by name. */
export type ReportTable = ReadonlyMap<string, { declaration: AnyReportDeclaration; listeners: readonly AnyReportListener[] }>;

/** The table of what features say; throws on a report declared twice, or heard and declared nowhere. */
export function reportTable(features: readonly FeatureReports[]): ReportTable {
  const table = new Map<string, { declaration: AnyReportDeclaration; listeners: AnyReportListener[] }>();
  for (const feature of features) {
    for (const declaration of feature.declares ?? []) {
      if (table.has(declaration.name)) throw new Error(`The report "${declaration.name}" is declared twice (again by ${feature.name})`);
      if (CORE_REPORTS.includes(declaration.name)) throw new Error(`${feature.name} declares the report "${declaration.name}": screen:${declaration.name} is the hub's own`);
      if (declaration.keep && (CORE_FIELDS as readonly string[]).includes(declaration.name)) throw new Error(`${feature.name} keeps the report "${declaration.name}" under a field of the hub's own`);
      table.set(declaration.name, { declaration, listeners: [] });
    }
  }
  for (const feature of features) {
    for (const listener of feature.hears ?? []) {
      const entry = table.get(listener.report);
      if (!entry) throw new Error(`${feature.name} hears the report "${listener.report}", which no module declares`);
      entry.listeners.push(listener);
    }
  }
  return table;
}

/** What each kept report says of a screen that has not made it yet, by name (presence shows it so). */
export function emptyReports(table: ReportTable): Record<string, unknown> {
  const empty: Record<string, unknown> = {};
  for (const [name, { declaration }] of table) if (declaration.keep) empty[name] = declaration.keep.empty;
  return empty;
}
