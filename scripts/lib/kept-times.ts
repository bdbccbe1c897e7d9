import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fromRoot } from "./paths";

/**
 * Times the harness keeps to plan the next run (the browser lanes, the order of Vitest's
 * files), one JSON file per table: the last run's, in this checkout (test-results/<name>),
 * and one committed beside this file (scripts/lib/<name>), from a full run, for a fresh clone
 * (CI). Where both have a key, the last run's figure wins: it was measured on this machine.
 */
export function keptTimes<T extends object>(name: string, dirs = { committed: fromRoot("scripts", "lib"), lastRun: fromRoot("test-results") }) {
  const committed = path.join(dirs.committed, name);
  const lastRun = path.join(dirs.lastRun, name);
  return {
    /** The committed figures with the last run's over them, of the part `pick` takes (the whole table by default). */
    read: <V extends object = Partial<T>>(pick: (table: Partial<T>) => V | undefined = (table) => table as V): Partial<V> => ({
      ...pick(readTable<T>(committed)),
      ...pick(readTable<T>(lastRun)),
    }),
    lastRun: () => readTable<T>(lastRun),
    saveLastRun(table: T): void {
      mkdirSync(path.dirname(lastRun), { recursive: true });
      writeFileSync(lastRun, `${JSON.stringify(table, null, 2)}\n`);
    },
  };
}

/** A missing or unreadable table is an empty one: the plan then works without it. */
function readTable<T extends object>(file: string): Partial<T> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return {};
  }
}
