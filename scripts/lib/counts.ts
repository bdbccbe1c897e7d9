export interface Counts {
  passed: number;
  failed: number;
}

/** The closing line CI reads: "N passed, N failed", alone on its line. */
export function summaryLine(counts: Counts): string {
  return `${counts.passed} passed, ${counts.failed} failed`;
}
