/**
 * Ends the run with one plain line, "vitest: N passed, N failed, N skipped", for CI logs — plus
 * the files that failed outside any test (a hook, an unhandled error), which no test count shows.
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const brokenFiles: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      const errors = module.errors();
      if (errors.length > 0) brokenFiles.push(`${module.moduleId}: ${errors.map((e) => e.message).join('; ')}`);
    }
    const extra = [
      ...brokenFiles.map((f) => `vitest: file failed outside its tests: ${f}`),
      ...unhandledErrors.map((e) => `vitest: unhandled error: ${e.message}`),
    ];
    process.stdout.write(`\n${extra.map((line) => `${line}\n`).join('')}vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
