/**
 * `npm run test:e2e [-- playwright args]`: Playwright in the system Chromium against the
 * built dashboard and the local service, both on fresh temporary data and free ports. With
 * no arguments, the whole suite in lanes side by side (scripts/lib/e2e-lanes.ts); with
 * arguments, those files or tests in one lane per service target.
 */
import { summaryLine } from "./lib/counts";
import { runE2E } from "./lib/e2e-run";
import { stopChildrenOnSignal } from "./lib/child";
import { printSlowest } from "./lib/slowest";

stopChildrenOnSignal();

try {
  const { counts, tests } = await runE2E(process.argv.slice(2));
  printSlowest([], tests);
  console.log(`\ne2e: ${summaryLine(counts)}`);
  process.exit(counts.failed > 0 ? 1 : 0);
} catch (error) {
  console.error(`\n${(error as Error).message}`);
  process.exit(1);
}
