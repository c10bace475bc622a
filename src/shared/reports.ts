/**
 * What screens report, named once. Each kind of report a wall or kiosk sends — its playback, its
 * clock, its last flip, proof of play… — is declared by the feature that owns it, in its part of
 * the shared contract (`src/shared/api/<feature>.ts`), by adding it to `ScreenReports`:
 *
 *   declare module '../reports.ts' {
 *     interface ScreenReports { plays: { report: PlayReport; answer: PlaysAnswer } }
 *   }
 *
 * A report travels as the socket event `screen:<name>` and is answered with `Ack<answer>`. Its
 * server side — the schema it is checked against, who may send it, who keeps and who hears it —
 * is its module's declaration (src/realtime/reports.ts); its browser side a screen part
 * (web/features/screen/parts/). Types only: a screen's code carries nothing of this file.
 */
import type { Ack } from './ack.ts';

/** Reports by name: `report` is what the screen sends, `answer` what it is acknowledged with. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface ScreenReports {}

export type ReportName = keyof ScreenReports & string;
export type ReportOf<K extends ReportName> = ScreenReports[K] extends { report: infer R } ? R : never;
export type AnswerOf<K extends ReportName> = ScreenReports[K] extends { answer: infer A } ? A : never;

/** The socket event a report travels on. */
export type ReportEventName<K extends ReportName = ReportName> = `screen:${K}`;

/** Every declared report as a client-to-server event (src/shared/events.ts adds them to the contract). */
export type ReportEvents = {
  [K in ReportName as ReportEventName<K>]: (report: ReportOf<K>, ack?: (result: Ack<AnswerOf<K>>) => void) => void;
};

/** The answer of a report that only says how the screen is now (its owner keeps the latest). */
export type Noted = { ok: true };

/** The event `name` travels on. */
export function reportEvent<K extends ReportName>(name: K): ReportEventName<K> {
  return `screen:${name}`;
}
