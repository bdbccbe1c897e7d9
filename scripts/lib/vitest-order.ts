import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { passOf, vitestDurations } from "./vitest-durations";

/**
 * Vitest's order for a run (vitest.config.ts): the files that took longest last time first,
 * so that no long file starts near the end with one worker left computing. Vitest's own order
 * does this only from its cache of the last run in this checkout: a fresh clone (CI) started
 * with the largest files, and the Postgres pass, reading the PGlite pass's times, ran the files
 * that only run on Postgres last as if they took nothing (tests/cluster/two-dashboards.test.ts,
 * about 25 s, alone at the end).
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const times = vitestDurations(passOf(process.env));
    return longestFirst(await super.sort(files), (spec) => times[path.relative(process.cwd(), spec.moduleId)]);
  }
}

/** `items` longest first; one with no time first of all (Vitest's rule for new files); ties keep their order. */
export function longestFirst<T>(items: T[], seconds: (item: T) => number | undefined): T[] {
  return items
    .map((item, order) => ({ item, order, seconds: seconds(item) ?? Infinity }))
    .sort((a, b) => b.seconds - a.seconds || a.order - b.order)
    .map((entry) => entry.item);
}
