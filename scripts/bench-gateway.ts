/**
 * `npm run bench:gateway [-- N]`: the same read (retrieving one message) directly from the
 * service with the key and through the dashboard's route with a session, N times each,
 * interleaved so both see the same machine; prints medians, p95s and the ratio.
 */
import { chromium } from "@playwright/test";
import { performance } from "node:perf_hooks";
import { CHROMIUM_ARGS, ensureChromium } from "./lib/chromium";
import { fromRoot } from "./lib/paths";
import { sendMessage } from "./lib/service-api";
import { withRunLock } from "./lib/run-lock";
import { stopChildrenOnSignal } from "./lib/child";
import { startStack, type Stack } from "./lib/stack";

stopChildrenOnSignal();

const N = Number(process.argv[2]) || 300;
const WARM_UP = 30;
const TARGET_RATIO = 1.25;

/** Signs in through the real login page and returns the session cookies as a header. */
async function sessionCookie(stack: Stack): Promise<string> {
  const browser = await chromium.launch({ executablePath: await ensureChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ baseURL: stack.baseURL });
    await page.goto("/login");
    await page.getByLabel("Email").fill(stack.admin.email);
    await page.getByLabel("Password").fill(stack.admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    const cookies = await page.context().cookies();
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return elapsed;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

await withRunLock("gateway benchmark", async () => {
  const stack = await startStack({ logDir: fromRoot("test-results", "bench-logs"), sandboxStepMs: 50 });
  try {
    const project = stack.projects[0];
    if (!project) throw new Error("the service wrote no SERVICE_PROJECTS");
    const cookie = await sessionCookie(stack);
    const id = await sendMessage({ serviceURL: stack.serviceURL, key: stack.serviceKey, project }, { subject: "Gateway benchmark" });
    const direct = { url: `${stack.serviceURL}/v1/emails/${id}`, headers: { Authorization: `Bearer ${stack.serviceKey}` } };
    const gateway = { url: `${stack.baseURL}/api/p/${project}/messages/${id}`, headers: { Cookie: cookie } };

    for (let i = 0; i < WARM_UP; i++) {
      await timed(direct.url, direct.headers);
      await timed(gateway.url, gateway.headers);
    }
    const times = { direct: [] as number[], gateway: [] as number[] };
    for (let i = 0; i < N; i++) {
      times.direct.push(await timed(direct.url, direct.headers));
      times.gateway.push(await timed(gateway.url, gateway.headers));
    }
    const stats = (list: number[]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
    };
    const d = stats(times.direct);
    const g = stats(times.gateway);
    const ratio = g.median / d.median;
    const ms = (v: number) => `${v.toFixed(2)} ms`;
    console.log(`\nGET one message, ${N} times each after ${WARM_UP} warm-up reads (PGlite, built dashboard):`);
    console.log(`  direct  GET /v1/emails/{id}                     median ${ms(d.median)}  p95 ${ms(d.p95)}`);
    console.log(`  gateway GET /api/p/{project}/messages/{id}      median ${ms(g.median)}  p95 ${ms(g.p95)}`);
    console.log(`  ratio of medians (gateway / direct): ${ratio.toFixed(2)}x (target ≤ ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? "met" : "NOT met"})`);
  } finally {
    await stack.stop();
  }
});
