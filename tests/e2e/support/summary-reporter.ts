/** Ends the run with one plain line, "playwright: N passed, N failed, N skipped", for CI logs. */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, TestResult['status']>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcomes.set(test.id, result.status);
  }

  onEnd(_result: FullResult): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const status of this.outcomes.values()) {
      if (status === 'passed') counts.passed++;
      else if (status === 'skipped') counts.skipped++;
      else counts.failed++;
    }
    process.stdout.write(`\nplaywright: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
