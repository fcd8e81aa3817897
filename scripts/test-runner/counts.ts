/** What one `bun test` process, or the whole run, reports. */
export type Counts = { passed: number; failed: number; skipped: number };

export const noCounts = (): Counts => ({ passed: 0, failed: 0, skipped: 0 });

/**
 * The totals of `bun test`'s report (its closing lines " 12 pass", " 3 skip",
 * " 1 todo", " 0 fail"). A todo is counted as skipped: it did not run either.
 */
export function parseCounts(report: string): Counts {
  const count = (word: string) => Number(report.match(new RegExp(`^\\s*(\\d+) ${word}$`, "m"))?.[1] ?? 0);
  return { passed: count("pass"), failed: count("fail"), skipped: count("skip") + count("todo") };
}

export function addCounts(a: Counts, b: Counts): Counts {
  return { passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped };
}

/** The closing line, alone on its line; CI reads « N passed, N failed » and the optional « , N skipped ». */
export function totalLine(c: Counts): string {
  return `Total: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
}
