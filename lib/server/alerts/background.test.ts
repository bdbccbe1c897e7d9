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
import { refreshDue, startInsightWork, stopInsightWork } from "./background";
import { refreshInsight } from "@/lib/server/insight/refresh";

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
});
