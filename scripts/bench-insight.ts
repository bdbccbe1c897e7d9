/**
 * `npm run bench:insight [-- N] [--only <section>] [--messages M] [--postgres <database url>] [--build-seconds S]`:
 * the speed of the insight features,
 * one section each, every section printing its figures and their ratio to its target.
 *
 *   presend  the pre-send checks (no SpamAssassin) of a generated 100 KB template,
 *            N runs after a warm-up; target: under 1 s.
 *   index    1,000,000 messages in the index: load, rollup build, sizes, and p50/p95 of the
 *            overview's figures, the provider table, the top links, one alert check and
 *            the Tags screen's figures (50 tag values);
 *            target: p95 under 200 ms each (scripts/lib/insight-bench.ts). `--messages`
 *            (or BENCH_INSIGHT_MESSAGES) sets the size; `--postgres` runs it in that (existing,
 *            scratch) Postgres database instead of PGlite: loaded if empty, used as found
 *            otherwise, never dropped (drop it yourself); `--build-seconds` stops the rollup
 *            build after S seconds and times the figures on what was built (a later run goes on
 *            from the marks left; 0: no build); `--build-only` stops before the timings (so a long
 *            load and build can run niced, and the timings later, alone).
 *   ingest   the stream's per-event write cost and the insight mark's share of it.
 */
import { performance } from "node:perf_hooks";
import { rerunUnderReactServer } from "./lib/react-server";

rerunUnderReactServer(import.meta.url, "BENCH_INSIGHT_CHILD");

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const only = option("only") ?? null;
// N: a bare number, not an option's value.
const N = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith("--"))) || 30;
const MESSAGES = Number(option("messages")?.replaceAll(/[_,]/g, "")) || Number(process.env.BENCH_INSIGHT_MESSAGES) || undefined;
const POSTGRES = option("postgres");
const BUILD_SECONDS = option("build-seconds") === undefined ? undefined : Number(option("build-seconds"));
const BUILD_ONLY = args.includes("--build-only");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Median and p95 of `runs` timings of `fn` (after `warmup` untimed runs), in ms. */
async function time(fn: () => unknown, runs: number, warmup = 3): Promise<{ median: number; p95: number; samples: number[] }> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), samples };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

/**
 * A marketing template as builders produce them: a styled head, then product rows until it
 * weighs `bytes`. `varied` gives every row its own inline styles, so no two elements are alike
 * (the checks' worst case: each element is checked on its own).
 */
function generatedTemplate(bytes: number, varied = false): string {
  const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{campaign}}</title>
<style>
  body { margin: 0; background: #f4f4f5; }
  .wrapper { width: 100%; table-layout: fixed; }
  .button { background-color: #2563eb; border-radius: 6px; color: #ffffff; display: inline-block; padding: 12px 20px; }
  @media (max-width: 600px) { .column { display: block !important; width: 100% !important; } }
  @media (prefers-color-scheme: dark) { .card { background: #18181b !important; color: #fafafa !important; } }
</style></head>
<body><table role="presentation" class="wrapper" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" class="card" style="background:#ffffff;border-radius:8px">
<tr><td style="padding:24px"><img src="https://cdn.acme.test/logo.png" width="120" height="40" alt="Acme"></td></tr>
`;
  const tail = `<tr><td style="padding:24px;font-size:12px;color:#71717a">You receive this because you subscribed at acme.test.
<a href="{{unsubscribeUrl}}" style="color:#71717a">Unsubscribe</a> · <a href="https://acme.test/preferences">Preferences</a></td></tr>
</table></td></tr></table></body></html>`;
  let body = "";
  for (let i = 0; head.length + body.length + tail.length < bytes; i++) {
    const v = varied ? i : 0;
    body += `<tr><td class="column" style="padding:${16 + v}px 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:22px;color:#27272a">
<img src="https://cdn.acme.test/products/${i}.jpg" width="552" height="300" alt="Product ${i}" style="display:block;border:0;max-width:${100 - (v % 50)}%">
<h2 style="margin:${16 + v}px 0 8px;font-size:20px">Product ${i}: the kettle that boils in ninety seconds</h2>
<p style="margin:0 0 ${12 + v}px">Brushed steel, a soft-close lid and a base that turns. Now ${10 + (i % 40)}% off until Sunday for members.</p>
<a class="button" href="https://shop.acme.test/p/${i}?utm_source=email&amp;utm_campaign={{campaign}}">See product ${i}</a>
</td></tr>
`;
  }
  return head + body + tail;
}

async function presendSection() {
  const { runChecks } = await import("@/lib/presend");
  const TARGET_MS = 1000;
  const templates = [
    ["rows alike (as builders repeat them)", generatedTemplate(100 * 1024)],
    ["every element different (worst case)", generatedTemplate(100 * 1024, true)],
  ] as const;
  console.log(`\n## presend: pre-send checks of a generated 100 KB template (no SpamAssassin); target ${TARGET_MS} ms`);
  for (const [label, html] of templates) {
    const draft = { subject: "Spring sale: {{firstName}}, up to 50% off", html, text: "Spring sale. Up to 50% off until Sunday at https://shop.acme.test", isBatch: true };
    const coldStart = performance.now();
    const first = runChecks(draft);
    const cold = performance.now() - coldStart;
    const { median, p95 } = await time(() => runChecks(draft), N);
    console.log(`  ${label}, ${(Buffer.byteLength(html) / 1024).toFixed(1)} KB: ${first.findings.length} findings, ${first.links.length} links`);
    console.log(`    first run${cold > 2 * median ? " (loads the caniemail data)" : ""}: ${ms(cold)}; ${N} runs: median ${ms(median)}, p95 ${ms(p95)} → p95 is ${(p95 / TARGET_MS).toFixed(2)}x the target`);
  }
}

const SECTIONS: Record<string, () => Promise<void>> = {
  presend: presendSection,
  index: async () => (await import("./lib/insight-bench")).indexSection(N, time, MESSAGES, { postgres: POSTGRES, buildSeconds: BUILD_SECONDS, buildOnly: BUILD_ONLY }),
  ingest: async () => (await import("./lib/insight-bench")).ingestSection(N, time),
};

async function main() {
  console.log(`bench:insight — ${N} timed runs per figure (pass a number to change it)`);
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (only && only !== name) continue;
    await run();
  }
}

await main();
