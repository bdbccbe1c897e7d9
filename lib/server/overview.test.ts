import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { useTestDb } from "@/lib/server/db/test-db";
import type { Project } from "@/lib/server/gate/guard";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { rates } from "@/lib/insight/rates";
import { getOverview, overviewCounts, overviewSeries, upcomingScheduled } from "./overview";

let dispose: () => Promise<void>;
let project: Project;
let other: Project;
const NOW = new Date("2026-03-10T12:30:00Z");
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false });
  other = await registerProject({ externalId: "p2", name: "P2" }, SYSTEM_ACTOR, { checkWithService: false });
  let n = 0;
  const msg = (p: Project, status: string, createdAt: Date, extra: Partial<typeof indexedMessages.$inferInsert> = {}) => ({
    id: `m${n++}`, projectId: p.id, direction: "outbound" as const, status, from: "a@x.test", to: ["b@y.test"], source: "dashboard", createdAt, ...extra,
  });
  const rows = [
    msg(project, "delivered", hoursAgo(1)),
    msg(project, "delivered", hoursAgo(2)),
    msg(project, "bounced", hoursAgo(3)),
    msg(project, "complained", hoursAgo(4)),
    msg(project, "rejected", hoursAgo(5)),
    msg(project, "delivered", hoursAgo(3 * 24)), // 7 d and 30 d only
    msg(project, "bounced", hoursAgo(20 * 24)), // 30 d only
    msg(project, "delivered", hoursAgo(40 * 24)), // outside every window
    msg(project, "queued", hoursAgo(1), { scheduledAt: new Date(NOW.getTime() + 3_600_000), subject: "Later" }), // waiting: not sent yet
    msg(project, "received", hoursAgo(1), { direction: "inbound" }),
    msg(other, "delivered", hoursAgo(1)),
  ];
  const d = await db();
  await d.insert(indexedMessages).values(rows);
  // m0 opened and clicked twice, each event seen by the stream and again by a read of the message; m1 opened.
  const event = (messageId: string, type: string, at: Date, origin: "stream" | "read", n: number, data: Record<string, unknown> = {}) => ({
    messageId, projectId: project.id, type, occurredAt: at, origin, webhookId: `${origin}:${messageId}:${type}:${n}`, data,
  });
  const link = { link: "https://shop.acme.test/sale?utm_source=mail&u=1" };
  await d.insert(indexedEvents).values(
    (["stream", "read"] as const).flatMap((origin) => [
      event("m0", "open", hoursAgo(0.5), origin, 1),
      event("m0", "click", hoursAgo(0.5), origin, 1, link),
      event("m0", "click", hoursAgo(0.4), origin, 2, { link: "https://shop.acme.test/sale?u=1#top" }),
      event("m1", "open", hoursAgo(1), origin, 1),
    ]),
  );
  for (const p of [project, other]) await d.transaction((tx) => markInsightDirty(tx, p.id, rows.filter((r) => r.projectId === p.id).map((r) => r.id)));
});
afterAll(() => dispose());

describe("overview numbers from the message index", () => {
  it("counts outbound messages of the project per window, a complaint as delivered too", async () => {
    const counts = await overviewCounts(project, NOW);
    expect(counts["24h"]).toEqual({ sent: 5, delivered: 3, bounced: 1, complained: 1, rejected: 1 });
    expect(counts["7d"]).toEqual({ sent: 6, delivered: 4, bounced: 1, complained: 1, rejected: 1 });
    expect(counts["30d"]).toEqual({ sent: 7, delivered: 4, bounced: 2, complained: 1, rejected: 1 });
  });

  it("rates: bounces per message sent; complaints, opens and clicks per message delivered", () => {
    expect(rates({ sent: 5, delivered: 3, bounced: 1, complained: 1, rejected: 1 })).toEqual({ bounce: 0.2, complaint: 1 / 3 });
    expect(rates({ sent: 5, delivered: 4, bounced: 1, complained: 1, rejected: 0, opened: 2, clicked: 1 })).toEqual({ bounce: 0.2, complaint: 0.25, open: 0.5, click: 0.25 });
    expect(rates({ sent: 0, delivered: 0, bounced: 0, complained: 0, rejected: 0 })).toEqual({ bounce: null, complaint: null });
  });

  it("counts opens and clicks once per message, whichever origin and however many times", async () => {
    const overview = await getOverview(project, "24h", NOW);
    expect(overview.engagement["24h"]).toEqual({ opened: 2, clicked: 1 });
    expect(overview.engagement["30d"]).toEqual({ opened: 2, clicked: 1 });
    // One link, whatever its query string or fragment: one message, one person.
    expect(overview.topLinks).toEqual([{ link: "https://shop.acme.test/sale", messages: 1, uniqueClicks: 1 }]);
    expect(overview.thresholds).toMatchObject({ bounceLimit: 0.04, complaintLimit: 0.001 });
  });

  it("buckets the chart by hour for 24 h, with empty hours filled", async () => {
    const series = await overviewSeries(project, "24h", NOW);
    expect(series).toHaveLength(25);
    expect(series.reduce((n, p) => n + p.sent, 0)).toBe(5);
    expect(series.find((p) => p.at === "2026-03-10T09:00:00Z")).toMatchObject({ bounced: 1 });
    const days = await overviewSeries(project, "30d", NOW);
    expect(days.reduce((n, p) => n + p.sent, 0)).toBe(7);
  });

  it("lists the scheduled sends still to come", async () => {
    const upcoming = await upcomingScheduled(project, NOW);
    expect(upcoming.map((m) => m.subject)).toEqual(["Later"]);
  });
});
