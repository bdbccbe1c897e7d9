/**
 * `npm run bench:gateway [-- N]`: the same read (retrieving one message) directly from the
 * service with the key and the project, as the dashboard asks it (and with the key alone), and
 * through the dashboard's route with a session, N times each, interleaved so all see the same
 * machine; prints medians, p95s and the ratios.
 *
 * The route serves a read from its cache while the event stream reports no change to the
 * message (lib/server/message-index/read.ts); that is the figure held to the target. The same
 * route asked with `Cache-Control: no-cache` (every read goes to the service) is printed
 * beside it, so the price of the round trip stays visible.
 *
 * `--profile <dir>` writes a CPU profile (node --cpu-prof) of the dashboard's process there.
 */
import { performance } from "node:perf_hooks";
import { fromRoot } from "./lib/paths";
import { sendMessage } from "./lib/service-api";
import { withRunLock } from "./lib/run-lock";
import { stopChildrenOnSignal } from "./lib/child";
import { sessionCookie } from "./lib/sign-in";
import { startStack } from "./lib/stack";

stopChildrenOnSignal();

const N = Number(process.argv[2]) || 500;
const profileAt = process.argv.indexOf("--profile");
const PROFILE = profileAt > 0 ? process.argv[profileAt + 1] : undefined;
const WARM_UP = 100;
/** Issue 27: a read the dashboard answers from its cache, and one that asks the service, against the direct call. */
const TARGET_RATIO = 1.1;
const UNCACHED_TARGET_RATIO = 1.5;

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return elapsed;
}

/** Polls the service until the message reached a final status (delivered, bounced, ...). */
async function waitForFinal(url: string, headers: Record<string, string>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { status } = (await (await fetch(url, { headers })).json()) as { status?: string };
    if (status && !["queued", "scheduled", "sending", "sent"].includes(status)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the benchmark message did not reach a final status within 30 s");
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

await withRunLock("gateway benchmark", async () => {
  const stack = await startStack({
    logDir: fromRoot("test-results", "bench-logs"),
    sandboxStepMs: 50,
    dashboardNodeFlags: PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE}`] : [],
  });
  try {
    const project = stack.projects[0];
    if (!project) throw new Error("the service wrote no SERVICE_PROJECTS");
    const cookie = await sessionCookie(stack.baseURL, stack.admin);
    const id = await sendMessage({ serviceURL: stack.serviceURL, key: stack.serviceKey, project }, { subject: "Gateway benchmark" });
    // The request the dashboard itself makes for this read (lib/server/service/headers.ts): the
    // key, the project, JSON. Without the project header the service skips its project lookup,
    // so that request (the one this benchmark used to compare against) is printed too.
    const keyOnly = { url: `${stack.serviceURL}/v1/emails/${id}`, headers: { Authorization: `Bearer ${stack.serviceKey}` } };
    const direct = { url: keyOnly.url, headers: { ...keyOnly.headers, Accept: "application/json", "X-Service-Product": project } };
    const gateway = { url: `${stack.baseURL}/api/p/${project}/messages/${id}`, headers: { Cookie: cookie } };
    const uncached = { url: gateway.url, headers: { Cookie: cookie, "Cache-Control": "no-cache" } };
    // The message settles first (the local service steps it to delivered), so the cache sees
    // the steady state support reads, not a message still changing.
    await waitForFinal(direct.url, direct.headers);

    for (let i = 0; i < WARM_UP; i++) {
      await timed(direct.url, direct.headers);
      await timed(keyOnly.url, keyOnly.headers);
      await timed(gateway.url, gateway.headers);
      await timed(uncached.url, uncached.headers);
    }
    // What the route answers (its size as JSON, and as sent: the bench's fetch asks for gzip, as a browser does).
    const sample = await fetch(gateway.url, { headers: gateway.headers });
    const sampleBody = await sample.text();
    if (process.env.BENCH_GATEWAY_DUMP) (await import("node:fs")).writeFileSync(process.env.BENCH_GATEWAY_DUMP, sampleBody);
    const sent = sample.headers.get("content-encoding") ? `${sample.headers.get("content-length") ?? "?"} bytes as ${sample.headers.get("content-encoding")}` : "uncompressed";
    console.log(`the route's answer: ${Buffer.byteLength(sampleBody)} bytes of JSON, sent ${sent}`);
    const times = { direct: [] as number[], keyOnly: [] as number[], gateway: [] as number[], uncached: [] as number[] };
    for (let i = 0; i < N; i++) {
      times.direct.push(await timed(direct.url, direct.headers));
      times.keyOnly.push(await timed(keyOnly.url, keyOnly.headers));
      times.gateway.push(await timed(gateway.url, gateway.headers));
      times.uncached.push(await timed(uncached.url, uncached.headers));
    }
    const stats = (list: number[]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
    };
    const d = stats(times.direct);
    const k = stats(times.keyOnly);
    const g = stats(times.gateway);
    const u = stats(times.uncached);
    const ratio = g.median / d.median;
    const ms = (v: number) => `${v.toFixed(2)} ms`;
    console.log(`\nGET one message, ${N} times each after ${WARM_UP} warm-up reads (PGlite, built dashboard):`);
    console.log(`  direct  GET /v1/emails/{id} (key, project)     median ${ms(d.median)}  p95 ${ms(d.p95)}`);
    console.log(`  direct  GET /v1/emails/{id} (key only)         median ${ms(k.median)}  p95 ${ms(k.p95)}`);
    console.log(`  gateway GET /api/p/{project}/messages/{id}      median ${ms(g.median)}  p95 ${ms(g.p95)}`);
    console.log(`  gateway, Cache-Control: no-cache (service asked every time)  median ${ms(u.median)}  p95 ${ms(u.p95)}`);
    console.log(`  ratio of medians (gateway / direct): ${ratio.toFixed(2)}x (target ≤ ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? "met" : "NOT met"})`);
    const uncachedRatio = u.median / d.median;
    console.log(`  ratio of medians (no-cache gateway / direct): ${uncachedRatio.toFixed(2)}x (target ≤ ${UNCACHED_TARGET_RATIO}x: ${uncachedRatio <= UNCACHED_TARGET_RATIO ? "met" : "NOT met"})`);
    console.log(`  against the key-only request: gateway ${(g.median / k.median).toFixed(2)}x, no-cache gateway ${(u.median / k.median).toFixed(2)}x`);
  } finally {
    await stack.stop();
  }
});
