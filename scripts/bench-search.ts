/**
 * `npm run bench:search [-- N]`: fills a fresh PGlite index with 100,000 messages (direct
 * multi-row inserts, 2 projects, 5,000 recipients, 90 days) and times the messages screen's
 * searches through the same function the screen uses: by recipient, by status and date
 * range, and by id. Prints p50/p95 per search; target p95 < 50 ms.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

// Server modules import "server-only", which only loads under the react-server condition.
if (!process.env.BENCH_SEARCH_CHILD) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", self, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_SEARCH_CHILD: "1" },
  });
  process.exit(run.status ?? 1);
}

const TOTAL = 100_000;
const RECIPIENTS = 5_000;
const DAYS = 90;
const N = Number(process.argv[2]) || 200;
const TARGET_P95_MS = 50;
const STATUSES = ["delivered", "delivered", "delivered", "delivered", "sent", "bounced", "complained", "rejected", "failed", "queued"];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  Object.assign(process.env, {
    SERVICE_URL: "http://127.0.0.1:9",
    SERVICE_API_KEY: "bench",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
  });
  const { openDatabase, installDb, closeDb } = await import("@/lib/server/db");
  const { projects } = await import("@/lib/server/db/schema/core");
  const { indexedMessages, indexedRecipients } = await import("@/lib/server/db/schema/messages");
  const { searchMessages } = await import("@/lib/server/messages/search");
  const { recipientRows } = await import("@/lib/server/messages/recipients");

  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-search-"));
  const handle = await openDatabase({ dataDir: dir });
  installDb(handle);
  try {
    const [main, other] = await handle.db.insert(projects).values([{ externalId: "bench-main", name: "Main" }, { externalId: "bench-other", name: "Other" }]).returning();
    const now = Date.now();
    const started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < TOTAL; i += 1000) {
      const rows: (typeof indexedMessages.$inferInsert)[] = [];
      for (let j = i; j < Math.min(TOTAL, i + 1000); j++) {
        const projectId = j % 10 === 9 ? other!.id : main!.id;
        const id = `msg_${j.toString(36).padStart(6, "0")}_${Math.random().toString(36).slice(2, 10)}`;
        if (projectId === main!.id) ids.push(id);
        const inbound = j % 20 === 0;
        rows.push({
          id,
          projectId,
          direction: inbound ? "inbound" : "outbound",
          status: inbound ? "received" : STATUSES[j % STATUSES.length]!,
          from: inbound ? `user${j % RECIPIENTS}@example.com` : "Acme <hello@acme.test>",
          to: [inbound ? "support@acme.test" : `user${(j * 7) % RECIPIENTS}@example.com`],
          subject: `Order ${j} update`,
          tags: [{ name: "kind", value: j % 3 === 0 ? "receipt" : "welcome" }],
          source: "webhook",
          createdAt: new Date(now - Math.floor(Math.random() * DAYS * 86_400_000)),
        });
      }
      const addresses = rows.flatMap((r) => recipientRows({ id: r.id, projectId: r.projectId, from: r.from, to: r.to ?? [], createdAt: r.createdAt }));
      await handle.db.insert(indexedMessages).values(rows);
      await handle.db.insert(indexedRecipients).values(addresses);
    }
    await handle.db.execute("analyze");
    console.log(`Filled ${TOTAL.toLocaleString("en")} messages in ${((performance.now() - started) / 1000).toFixed(1)} s (PGlite, ${dir}).`);

    const pick = <T,>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const cases: [string, () => Promise<number>][] = [
      ["by recipient", async () => (await searchMessages(main!.id, { q: `user${Math.floor(Math.random() * RECIPIENTS)}@example.com` })).data.length],
      [
        "by status + 7-day range",
        async () => {
          const start = now - Math.floor(Math.random() * (DAYS - 7)) * 86_400_000 - 7 * 86_400_000;
          const r = await searchMessages(main!.id, { status: pick(["bounced", "delivered", "failed"]) as "bounced", from: new Date(start).toISOString(), to: new Date(start + 7 * 86_400_000).toISOString() });
          return r.data.length;
        },
      ],
      ["by id", async () => (await searchMessages(main!.id, { q: pick(ids) })).data.length],
    ];
    let failed = false;
    for (const [name, run] of cases) {
      for (let i = 0; i < 20; i++) await run(); // warm-up
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < N; i++) {
        const t = performance.now();
        found += await run();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      if (p95 >= TARGET_P95_MS) failed = true;
      console.log(`${name.padEnd(24)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   (${N} runs, ${(found / N).toFixed(1)} rows/search)${p95 >= TARGET_P95_MS ? "  ABOVE TARGET" : ""}`);
    }
    console.log(failed ? `Some p95 is at or above ${TARGET_P95_MS} ms.` : `Every p95 is under ${TARGET_P95_MS} ms.`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await closeDb();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
