import type { BrowserTest } from "./e2e-run";
import type { FileTime } from "./vitest-run";

const COUNT = 10;
const secs = (s: number) => `${s.toFixed(1).padStart(6)}s`;

/**
 * The end of every run: its ten slowest test files (Vitest's, per pass, and the browser
 * suite's, per lane) and ten slowest browser tests, so the next slow one is seen when it
 * arrives. Times are each file's or test's own, from the parts' reports.
 */
export function printSlowest(vitestFiles: (FileTime & { part: string })[], browserTests: BrowserTest[]): void {
  const specFiles = new Map<string, FileTime & { part: string }>();
  for (const t of browserTests) {
    const key = `${t.lane} ${t.file}`;
    const entry = specFiles.get(key) ?? { file: t.file, seconds: 0, part: `Playwright, ${t.lane}` };
    entry.seconds += t.seconds;
    specFiles.set(key, entry);
  }
  const allFiles = [...vitestFiles, ...specFiles.values()].sort((a, b) => b.seconds - a.seconds).slice(0, COUNT);
  if (allFiles.length) {
    console.log(`\n=== The ${allFiles.length} slowest test files ===`);
    for (const f of allFiles) console.log(`  ${secs(f.seconds)}  ${f.file}  (${f.part.replace(/ \(suites using .*\)$/, "")})`);
  }
  const tests = [...browserTests].sort((a, b) => b.seconds - a.seconds).slice(0, COUNT);
  if (tests.length) {
    console.log(`\n=== The ${tests.length} slowest browser tests ===`);
    for (const t of tests) console.log(`  ${secs(t.seconds)}  ${t.file} › ${t.title}  (${t.lane})`);
  }
}
