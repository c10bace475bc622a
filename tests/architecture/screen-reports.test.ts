/**
 * What screens report is said once on each side: every report a module declares
 * (src/realtime/reports.ts) is sent by exactly one screen part, and a part sends only reports a
 * module declares (the session refuses any other at run time: tests/unit-web/screen-parts.test.ts).
 * A report declared and sent by nobody, or sent and taken by nobody, fails here. The parts are
 * read from their source (they are browser code), the declarations from the module list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../src/modules/index.ts';
import type { ModuleContext } from '../../src/modules/module.ts';
import { reportTable } from '../../src/realtime/reports.ts';

const partsDir = path.resolve(import.meta.dirname, '../../web/features/screen/parts');

// The declarations only, as the route table is built for the OpenAPI document: nothing runs.
const stub: object = new Proxy(() => stub, { get: () => stub });
const declared = [...reportTable(MODULES.flatMap((m) => m.reports?.(stub as ModuleContext<unknown>, stub) ?? [])).keys()].sort();

/** Each `definePart({ name, reports: [...] })` in a source: the part's variable and the reports it lists. */
function partsIn(text: string): { part: string; reports: string[] }[] {
  const source = ts.createSourceFile('part.ts', text, ts.ScriptTarget.Latest, true);
  const found: { part: string; reports: string[] }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isCallExpression(node.initializer) && node.initializer.expression.getText() === 'definePart') {
      const spec = node.initializer.arguments[0];
      const reports = spec && ts.isObjectLiteralExpression(spec) ? spec.properties.find((p) => p.name?.getText() === 'reports') : undefined;
      const list = reports && ts.isPropertyAssignment(reports) && ts.isArrayLiteralExpression(reports.initializer) ? reports.initializer.elements.map((e) => (ts.isStringLiteral(e) ? e.text : e.getText())) : [];
      found.push({ part: node.name.getText(), reports: list });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = readdirSync(partsDir).filter((f) => f.endsWith('.ts') && f !== 'part.ts' && f !== 'index.ts');
const parts = files.flatMap((f) => partsIn(readFileSync(path.join(partsDir, f), 'utf8')));
const listed = readFileSync(path.join(partsDir, 'index.ts'), 'utf8');

/** What is wrong between what the modules declare and what the parts send (nothing, when they agree). */
function mismatches(sent: readonly { part: string; reports: string[] }[], taken: readonly string[]): string[] {
  const senders = (report: string) => sent.filter((p) => p.reports.includes(report)).map((p) => p.part);
  return [
    ...taken.filter((report) => senders(report).length !== 1).map((report) => `${report} is sent by ${senders(report).join(', ') || 'no part'}`),
    ...sent.flatMap((p) => p.reports.filter((report) => !taken.includes(report)).map((report) => `${p.part} sends ${report}, which no module declares`)),
  ];
}

describe('screen reports, declared and sent', () => {
  it('the modules declare the reports screens send, and the parts are found (neither list is empty)', () => {
    expect(declared).toEqual(['clock', 'dropped_frames', 'flip', 'health', 'offline_start', 'plays']);
    expect(parts.length).toBeGreaterThanOrEqual(10);
  });

  it('every part is in the list a session starts', () => {
    for (const { part } of parts) expect(listed, part).toMatch(new RegExp(`^\\s+${part},$`, 'm'));
  });

  it('each declared report is sent by exactly one part, and each part sends only declared reports', () => {
    expect(mismatches(parts, declared)).toEqual([]);
  });

  it('finds what it looks for (planted: a report nobody declares, one sent twice, one nobody sends)', () => {
    const rogue = partsIn("export const rogue = definePart<'beep' | 'clock'>({ name: 'rogue', reports: ['beep', 'clock'], start: () => ({}) });");
    expect(rogue).toEqual([{ part: 'rogue', reports: ['beep', 'clock'] }]);
    expect(mismatches([...parts, ...rogue], declared)).toEqual(['clock is sent by clockPart, rogue', 'rogue sends beep, which no module declares']);
    expect(mismatches(parts.filter((p) => p.part !== 'playsPart'), declared)).toEqual(['plays is sent by no part']);
  });
});
