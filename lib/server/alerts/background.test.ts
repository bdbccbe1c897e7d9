import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { alertStates, insightDirty } from "@/lib/server/db/schema/insight";
import { useTestDb } from "@/lib/server/db/test-db";
import { recordBounceTraffic } from "@/lib/server/alerts/test-traffic";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { BACKLOG_LIMIT, evaluateAlerts } from "@/lib/server/alerts/evaluate";
import { passBatches, refreshDue, startInsightWork, stopInsightWork } from "./background";
import { refreshInsight } from "@/lib/server/insight/refresh";
import type { Actor } from "@/lib/server/gate/access";
import { exportResponse, exportsRunningHere } from "@/lib/server/export/stream";

let dispose: () => Promise<void>;
let project: Project;

beforeAll(async () => {
  setTestEnv({ ALERT_MIN_VOLUME: "5" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
});
afterAll(async () => {
  await stopInsightWork();
  await dispose();
});

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("insight's background work", () => {
  it("refreshes the rollups and checks the alerts on its own, and stops cleanly", async () => {
    startInsightWork({ refreshEveryMs: 20, domainsEveryMs: 50, alertsEveryMs: 50, outboxEveryMs: 50 });
    startInsightWork(); // a second start in the same process changes nothing
    await recordBounceTraffic(project.id, 5);
    const d = await db();
    const state = await until(
      "the bounce alert",
      async () => (await d.select().from(alertStates).where(and(eq(alertStates.projectId, project.id), eq(alertStates.metric, "bounce"))))[0],
      (s) => s?.level === "limit",
    );
    expect(state!.windows.find((w) => w.window === "24h")).toMatchObject({ rate: 0.5, volume: 10, enough: true });
    expect(await d.select().from(insightDirty)).toEqual([]);
    await stopInsightWork();
    await stopInsightWork(); // and a second stop too
  });

  it("does not check alerts on a half-built rollup (a backfill or a bulk hand-over still waiting)", async () => {
    const d = await db();
    await d.execute(sql`insert into insight_dirty (message_id, project_id) select 'bulk-' || g, ${project.id} from generate_series(1, ${String(BACKLOG_LIMIT + 2_500)}::int) g`);
    expect(await evaluateAlerts()).toEqual({ skipped: "the rollups are catching up", projects: 0, changes: [] });
    await refreshInsight({ batchSize: 5_000 });
    expect((await evaluateAlerts()).skipped).toBe(false);
  });

  it("spaces the refresher's passes out while a batch job sends, and not otherwise", () => {
    const t = 1_000_000;
    expect(refreshDue(t, t - 10, false, 15_000)).toBe(true);
    expect(refreshDue(t, t - 10, true, 15_000)).toBe(false);
    expect(refreshDue(t, t - 14_999, true, 15_000)).toBe(false);
    expect(refreshDue(t, t - 15_000, true, 15_000)).toBe(true);
    // The first pass of a process is never held back.
    expect(refreshDue(t, 0, true)).toBe(true);
  });

  it("keeps its passes to one batch, once per 15 s, while an export runs here, and catches up after it (issue 28: the export's pages waited behind seconds of rollups)", async () => {
    expect(passBatches(true)).toBe(1);
    const d = await db();
    const dirty = async () => Number((await d.select({ n: sql<number>`count(*)` }).from(insightDirty))[0]!.n);
    await refreshInsight();
    await d.execute(sql`insert into insight_dirty (message_id, project_id) select 'exporting-' || g, ${project.id} from generate_series(1, 3000) g`);
    // An export whose client has not read yet: it holds its slot, as one streaming a million rows does.
    const pages = async function* (signal: AbortSignal) {
      for (let p = 0; p < 1_000 && !signal.aborted; p++) yield [p];
    };
    const res = await exportResponse({ actor: { id: "exporter", email: "exporter@example.com" } as Actor, project: null, kind: "numbers", filter: {}, format: "csv", columns: [{ header: "n", value: (n: number) => n }], pages });
    expect(exportsRunningHere()).toBe(true);
    startInsightWork({ refreshEveryMs: 20, domainsEveryMs: 60_000, alertsEveryMs: 60_000, outboxEveryMs: 60_000 });
    // Its first pass (one batch), then well past the time the rest would have taken in full passes.
    await until("the refresher's first pass", dirty, (n) => n < 3_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await dirty()).toBeGreaterThanOrEqual(2_500);
    await res.body!.cancel();
    expect(exportsRunningHere()).toBe(false);
    await until("the rollups to catch up after the export", dirty, (n) => n === 0);
    await stopInsightWork();
  });
});
