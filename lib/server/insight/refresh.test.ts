import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { consumerProvider } from "@/lib/insight/providers";
import type { Message } from "@/lib/schemas/emails";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { recordEvent } from "@/lib/server/message-index/record-event";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { linkPeopleRollup } from "@/lib/test/link-people";
import { ALERT_TAG } from "./alert-tag";
import { refreshInsight } from "./refresh";
import { topLinks } from "./links";
import { windowTotals } from "./windows";

/**
 * The rollups are maintained from the index's state, whatever order and however often the
 * write paths (compose's record, the stream's events, the re-reads) touch a message: after any
 * interleaving, they equal a count made directly over the index's rows.
 */
let dispose: () => Promise<void>;
let project: Project;
const HOUR = 3_600_000;
const NOW = Date.now();

/** mulberry32: a seeded generator, so a failure replays. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false });
});
afterAll(() => dispose());

type Plan = { id: string; to: string; outcome: string; opened: boolean; link: string | null; createdAt: Date };
const DOMAINS = ["gmail.com", "yahoo.com", "outlook.com", "acme-corp.test", "icloud.com"];
const LINKS = ["https://shop.test/a?utm=1", "https://shop.test/b", "https://shop.test/a#x"];
const LIFECYCLE: Record<string, string[]> = {
  delivered: ["sent", "delivery"],
  bounced: ["sent", "bounce"],
  complained: ["sent", "delivery", "complaint"],
  rejected: ["rejected"],
  pending: ["sent"],
};

/** The truth, counted over the index's rows in JavaScript: per provider and hour. */
async function recount(): Promise<Map<string, Record<string, number>>> {
  const d = await db();
  const messages = rowsOf<Record<string, unknown>>(await d.execute(sql`select id, status, to_addresses, created_at, scheduled_at, tags, direction from indexed_messages where project_id = ${project.id}`));
  const events = rowsOf<{ message_id: string; type: string }>(await d.execute(sql`select message_id, type from indexed_events where project_id = ${project.id}`));
  const out = new Map<string, Record<string, number>>();
  for (const m of messages) {
    if (m.direction !== "outbound" || JSON.stringify(m.tags).includes(ALERT_TAG.value)) continue;
    const to = String((m.to_addresses as string[])[0] ?? "").toLowerCase();
    const email = /<([^<>]+)>\s*$/.exec(to)?.[1] ?? to;
    const provider = consumerProvider(email.split("@")[1] ?? "") ?? "other";
    const at = Math.max(new Date(m.created_at as string).getTime(), m.scheduled_at ? new Date(m.scheduled_at as string).getTime() : 0);
    const key = `${provider} ${new Date(Math.floor(at / HOUR) * HOUR).toISOString()}`;
    const mine = events.filter((e) => e.message_id === m.id);
    const c = out.get(key) ?? { sent: 0, delivered: 0, bounced: 0, complained: 0, rejected: 0, failed: 0, opened: 0, clicked: 0 };
    c.sent++;
    if (m.status === "delivered" || m.status === "complained") c.delivered++;
    for (const s of ["bounced", "complained", "rejected", "failed"]) if (m.status === s) c[s]++;
    if (mine.some((e) => e.type === "open" || e.type === "click")) c.opened++;
    if (mine.some((e) => e.type === "click")) c.clicked++;
    out.set(key, c);
  }
  return out;
}

async function rollup(): Promise<Map<string, Record<string, number>>> {
  const rows = rowsOf<Record<string, unknown>>(
    await (await db()).execute(sql`select * from insight_hourly where project_id = ${project.id} and (sent <> 0 or opened <> 0 or delivered <> 0)`),
  );
  return new Map(
    rows.map((r) => [
      `${r.provider} ${new Date(r.hour as string).toISOString()}`,
      Object.fromEntries(["sent", "delivered", "bounced", "complained", "rejected", "failed", "opened", "clicked"].map((k) => [k, Number(r[k])])),
    ]),
  );
}

describe("insight rollups", () => {
  it("equal a direct count after any interleaving of the write paths, refreshes included", async () => {
    const rnd = random(20_251_124);
    const pick = <T,>(list: T[]) => list[Math.floor(rnd() * list.length)]!;
    const plans: Plan[] = Array.from({ length: 120 }, (_, i) => ({
      id: `msg-${i}`,
      to: `${pick(["ada", "bo", "cy"])}${i % 17}@${pick(DOMAINS)}`,
      outcome: pick(["delivered", "delivered", "delivered", "bounced", "complained", "rejected", "pending"]),
      opened: rnd() < 0.4,
      link: rnd() < 0.5 ? pick(LINKS) : null,
      createdAt: new Date(NOW - Math.floor(rnd() * 9 * 24 * HOUR)),
    }));
    const ops: (() => Promise<unknown>)[] = [];
    let key = 0;
    for (const p of plans) {
      const types = [...LIFECYCLE[p.outcome]!, ...(p.opened && p.outcome === "delivered" ? ["open", ...(p.link ? ["click"] : [])] : [])];
      const withLink = (t: string) => (t === "click" ? { link: p.link } : {});
      if (rnd() < 0.7) {
        const request = { from: { email: "shop@acme.test" }, to: [{ email: p.to, name: "Ada" }], subject: "Hi", text: "x" };
        ops.push(() => recordSentMessages([{ projectId: project.id, messageId: p.id, request, sentBy: null, idempotencyKey: null, source: "dashboard", createdAt: p.createdAt }]));
      }
      for (const [i, type] of types.entries()) {
        const at = new Date(p.createdAt.getTime() + (i + 1) * 60_000);
        const event = { messageId: p.id, type, occurredAt: at, direction: "outbound" as const, from: null, to: rnd() < 0.5 ? [p.to] : null, subject: null, text: null, html: null, details: withLink(type) };
        const k = `wh-${key++}`;
        ops.push(() => recordEvent(project.id, k, event, 60_000));
        if (rnd() < 0.3) ops.push(() => recordEvent(project.id, k, event, 60_000)); // a redelivery
      }
      if (rnd() < 0.6) {
        const message: Message = {
          id: p.id,
          from: "Shop <shop@acme.test>",
          to: [p.to],
          subject: "Hi",
          status: p.outcome === "pending" ? "sent" : p.outcome,
          direction: "outbound",
          createdAt: p.createdAt.toISOString(),
          events: types.map((type, i) => ({ type, createdAt: new Date(p.createdAt.getTime() + (i + 1) * 60_000).toISOString(), data: withLink(type) })),
        };
        ops.push(() => indexServiceMessage(project.id, message));
        if (rnd() < 0.3) ops.push(() => indexServiceMessage(project.id, message)); // read twice
      }
    }
    // Shuffled: events before the send is recorded, reads before events, all of it.
    for (let i = ops.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [ops[i], ops[j]] = [ops[j]!, ops[i]!];
    }
    for (const [i, op] of ops.entries()) {
      await op();
      if (i % 37 === 0) await refreshInsight({ batchSize: 7, maxBatches: 3 });
    }
    await refreshInsight({ batchSize: 50 });
    const truth = await recount();
    expect([...truth.values()].reduce((n, c) => n + c.sent, 0)).toBeGreaterThan(100);
    expect([...truth.values()].reduce((n, c) => n + c.opened, 0)).toBeGreaterThan(10);
    expect(await rollup()).toEqual(truth);

    // Marking everything again and refreshing changes nothing: the rollups follow the state, not the marks.
    await (await db()).execute(sql`insert into insight_dirty (message_id, project_id) select id, project_id from indexed_messages on conflict do nothing`);
    await refreshInsight();
    expect(await rollup()).toEqual(truth);

    // Window totals equal the recount of the same period.
    const since = NOW - 3 * 24 * HOUR - 1234;
    const [total] = (await windowTotals(project.id, [since], new Date(NOW))).get("all")!;
    const messages = rowsOf<{ n: number }>(await (await db()).execute(sql`select count(*)::int as n from indexed_messages where project_id = ${project.id} and created_at >= ${new Date(since).toISOString()}::timestamptz`));
    expect(total!.sent).toBe(messages[0]!.n);

    // Top links: the clicked links of the period, without their query strings and fragments.
    const links = await topLinks(project.id, new Date(NOW - 10 * 24 * HOUR), new Date(NOW));
    const clickers = plans.filter((p) => p.opened && p.outcome === "delivered" && p.link);
    const expectPerLink = (prefix: string) => clickers.filter((p) => p.link!.startsWith(prefix));
    expect(links.map((l) => l.link).sort()).toEqual(["https://shop.test/a", "https://shop.test/b"].filter((l) => expectPerLink(l).length > 0));
    for (const l of links) {
      const mine = expectPerLink(l.link);
      expect(l.messages).toBe(mine.length);
      expect(l.uniqueClicks).toBe(new Set(mine.map((p) => p.to.toLowerCase())).size);
    }

    // The people rollup follows each clicker's newest click from hour to hour as clicks arrive in any order.
    const people = await linkPeopleRollup(await db());
    expect(Object.keys(people.recount).length).toBeGreaterThan(3);
    expect(people.rollup).toEqual(people.recount);
    // A shorter period counts the people whose newest click is in it, from the hour it starts in.
    const periodStart = new Date(NOW - 4 * 24 * HOUR - 1234);
    const recent = await topLinks(project.id, periodStart, new Date(NOW));
    const sinceHour = Math.floor(periodStart.getTime() / HOUR) * HOUR;
    for (const l of recent) {
      // A clicker's time is their message's (when it was sent), as on the rest of the overview.
      const newest = new Map<string, number>();
      for (const p of expectPerLink(l.link)) newest.set(p.to.toLowerCase(), Math.max(newest.get(p.to.toLowerCase()) ?? 0, p.createdAt.getTime()));
      expect(l.uniqueClicks).toBe([...newest.values()].filter((t) => t >= sinceHour).length);
    }
  });

  it("leaves out the dashboard's own alert emails and counts a scheduled message from its time", async () => {
    const d = await db();
    const before = await rollup();
    const sum = (m: Map<string, Record<string, number>>) => [...m.values()].reduce((n, c) => n + c.sent, 0);
    const request = { from: { email: "alerts@acme.test" }, to: [{ email: "admin@acme.test" }], subject: "Alert", text: "x", tags: [{ ...ALERT_TAG }] };
    await recordSentMessages([{ projectId: project.id, messageId: "alert-1", request, sentBy: null, idempotencyKey: null, source: "dashboard", status: "delivered" }]);
    const later = new Date(NOW + 5 * 24 * HOUR);
    await recordSentMessages([{ projectId: project.id, messageId: "later-1", request: { ...request, tags: [], scheduledAt: later.toISOString() }, sentBy: null, idempotencyKey: null, source: "dashboard" }]);
    await refreshInsight();
    expect(sum(await rollup())).toBe(sum(before) + 1);
    const [next] = rowsOf<{ hour: string }>(await d.execute(sql`select hour from insight_hourly h where project_id = ${project.id} and hour > now() + interval '4 days'`));
    expect(new Date(next!.hour).toISOString()).toBe(new Date(Math.floor(later.getTime() / HOUR) * HOUR).toISOString());
    // Not sent yet: in no window ending now, and in the window around its time.
    const [month] = (await windowTotals(project.id, [NOW - 30 * 24 * HOUR], new Date(NOW))).get("all")!;
    expect(month!.sent).toBe(sum(before));
    const [around] = (await windowTotals(project.id, [later.getTime() - 1_800_000], new Date(later.getTime() + 1_800_000))).get("all")!;
    expect(around!.sent).toBe(1);
  });

  it("moves a clicker between hours as their newest click changes, so a period counts them once, by their newest", async () => {
    const d = await db();
    const other = await registerProject({ externalId: "people" }, SYSTEM_ACTOR, { checkWithService: false });
    const link = "https://shop.test/people";
    const clicked = async (id: string, to: string, createdAt: Date) => {
      const request = { from: { email: "shop@acme.test" }, to: [{ email: to }], subject: "Hi", text: "x" };
      await recordSentMessages([{ projectId: other.id, messageId: id, request, sentBy: null, idempotencyKey: null, source: "dashboard", createdAt }]);
      const event = { messageId: id, type: "click", occurredAt: new Date(createdAt.getTime() + 60_000), direction: "outbound" as const, from: null, to: null, subject: null, text: null, html: null, details: { link } };
      await recordEvent(other.id, `wh-people-${id}`, event, 60_000);
      await refreshInsight();
    };
    const people = async (sinceMs: number) => (await topLinks(other.id, new Date(NOW - sinceMs), new Date(NOW))).find((l) => l.link === link)?.uniqueClicks ?? 0;

    await clicked("p-1", "Ada@Example.com", new Date(NOW - 5 * 24 * HOUR)); // Ada, five days ago
    await clicked("p-2", "bo@example.com", new Date(NOW - 5 * 24 * HOUR));
    expect([await people(3 * 24 * HOUR), await people(7 * 24 * HOUR)]).toEqual([0, 2]);
    await clicked("p-3", "ada@example.com", new Date(NOW - 24 * HOUR)); // Ada again, yesterday: her newest click moves
    expect([await people(3 * 24 * HOUR), await people(7 * 24 * HOUR)]).toEqual([1, 2]);
    await clicked("p-4", "ada@example.com", new Date(NOW - 9 * 24 * HOUR)); // an older click arriving late changes nothing
    expect([await people(3 * 24 * HOUR), await people(7 * 24 * HOUR), await people(10 * 24 * HOUR)]).toEqual([1, 2, 2]);
    const rollup = await linkPeopleRollup(d);
    expect(rollup.rollup).toEqual(rollup.recount);
  });
});
