/**
 * The failed tests of a run, named again at its very end. CI shows only the tail of a run's
 * output; without this a failure printed ten minutes earlier is known only by its count.
 */

/** One failed test: where it ran, its name, and the start of what it said. */
export interface Failure {
  part: string;
  name: string;
  message: string;
}

const MAX_FAILURES = 10;
const MAX_LINES = 4;
const MAX_LINE_CHARS = 200;

// Terminal colour codes (ESC [ ... m) in reporters' messages.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The first lines of an error message, without colours or blank lines, each cut short. */
export function firstLines(message: string | undefined): string {
  return (message ?? "")
    .replace(ANSI, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, MAX_LINES)
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line))
    .join("\n");
}

/** Prints nothing when nothing failed. */
export function printFailures(failures: Failure[]): void {
  if (failures.length === 0) return;
  console.log(`\n=== Failed: ${failures.length} test${failures.length === 1 ? "" : "s"} ===`);
  for (const f of failures.slice(0, MAX_FAILURES)) {
    console.log(`  ✘ ${f.name}  (${f.part})`);
    for (const line of firstLines(f.message).split("\n")) if (line) console.log(`      ${line}`);
  }
  if (failures.length > MAX_FAILURES) console.log(`  … and ${failures.length - MAX_FAILURES} more (see above)`);
}
