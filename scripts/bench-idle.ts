/**
 * `npm run bench:idle [-- SECONDS]`: what a started stack (the bundled service and the built
 * dashboard, each on PGlite) costs while nobody uses it: each server's CPU a second over
 * SECONDS (default 60) once the machine is quiet, and the share of one core. Their background
 * work (the service's job worker, the dashboard's re-read worker, insight refresher, lookups,
 * alert outbox, DMARC jobs, batch sweeper, reconciler) runs at its own pace; the pollers that
 * claim work ask their due gate first (contract/db/due-gate.ts), so between two writes they
 * ask PGlite nothing. An idle stack is what every self-hosted install is most of the day, and
 * what each browser-test lane's stack is between two requests.
 */
import { stopChildrenOnSignal } from "./lib/child";
import { waitForIdle } from "./lib/idle";
import { fromRoot } from "./lib/paths";
import { groupCpuMs } from "./lib/proc-cpu";
import { withRunLock } from "./lib/run-lock";
import { startStack } from "./lib/stack";

stopChildrenOnSignal();

const seconds = Number(process.argv[2]) || 60;

await withRunLock("bench:idle", async () => {
  const stack = await startStack({ logDir: fromRoot("test-results", "bench-idle") });
  try {
    // The start's own work (the seed's lifecycle steps, the first refresh) settles first.
    const waited = await waitForIdle({ maxBusy: 0.1, windowMs: 3_000, timeoutMs: 120_000 });
    console.log(`Stack started; the machine was quiet after ${(waited / 1000).toFixed(0)} s. Measuring ${seconds} s.`);
    const cpu = () => ({ service: groupCpuMs(stack.pids.service), dashboard: groupCpuMs(stack.pids.dashboard) });
    const before = cpu();
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const after = cpu();
    const elapsed = (Date.now() - started) / 1000;
    for (const name of ["service", "dashboard"] as const) {
      const a = before[name];
      const b = after[name];
      if (a === null || b === null) {
        console.log(`  ${name}: no CPU figures (needs Linux's /proc)`);
        continue;
      }
      const perSecond = (b - a) / elapsed;
      console.log(`  ${name.padEnd(9)} ${perSecond.toFixed(1).padStart(6)} ms of CPU a second idle (${((perSecond / 1000) * 100).toFixed(1)} % of one core)`);
    }
  } finally {
    await stack.stop();
  }
});
