import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import type { Message } from "@/lib/schemas/emails";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import type { Project } from "@/lib/server/gate/access";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recordEvent } from "@/lib/server/message-index/record-event";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { eraseMessages } from "@/lib/server/retention/erase-messages";
import { pruneOnce } from "@/lib/server/retention/prune";
import { eraseRecipient } from "@/lib/server/retention/erase";
import { createUser } from "@/lib/server/users";
import type { Actor } from "@/lib/server/gate/access";
import { setTestEnv } from "@/lib/server/test-helpers";
import { refreshInsight } from "./refresh";
import { INSIGHT_TAG_PAIRS_MAX } from "./tag-refresh";
import { windowTotals, type TotalKey } from "./windows";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * The tag rollup (issue 30): built by the same refresher as the others from the same marks, so
 * every write path keeps it — a tag the service reports only later, an event arriving later,
 * an erasure, a retention prune — and bounded per project. On PGlite, or Postgres with
 * TEST_DATABASE_URL.
 */
let dispose: () => Promise<void>;
let a: Project;
let b: Project;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  a = await registerProject({ externalId: "tags-a" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  b = await registerProject({ externalId: "tags-b" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
});
afterAll(() => dispose());

type Tag = { name: string; value: string };
const send = (project: Project, id: string, tags: Tag[], opts: { to?: string; status?: string; createdAt?: Date } = {}) =>
  recordSentMessages([
    {
      projectId: project.id,
      messageId: id,
      request: { from: { email: "shop@acme.test" }, to: [{ email: opts.to ?? `${id}@example.com` }], subject: "Hi", text: "x", tags },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard",
      status: opts.status ?? "sent",
      createdAt: opts.createdAt,
    },
  ]);
const event = (project: Project, id: string, type: string, n: number) =>
  recordEvent(project.id, `wh-${id}-${type}-${n}`, { messageId: id, type, occurredAt: new Date(), direction: "outbound", from: null, to: null, subject: null, text: null, html: null, details: {} }, 60_000);

/** The project's figures per pair over the last 30 days, from the rollup and its edges: `name=value` → the counts asked for. */
async function figures(project: Project, keys: readonly TotalKey[] = ["sent", "delivered", "bounced", "opened"]) {
  const now = new Date();
  const byTag = await windowTotals(project.id, [now.getTime() - 30 * DAY], now, { byTag: true });
  const out: Record<string, Record<string, number>> = {};
  for (const [key, [t]] of byTag) {
    if (!t || t.sent === 0) continue;
    const [name, value] = JSON.parse(key) as [string, string];
    out[name || value ? `${name}=${value}` : "(other)"] = Object.fromEntries(keys.map((k) => [k, t[k]]));
  }
  return out;
}

/** The rollup's rows summed per pair, all hours: equal to the facts, whatever path moved them. */
async function rollupSums(project: Project) {
  const rows = rowsOf<{ pair: string; sent: number }>(
    await (await db()).execute(sql`select name || '=' || value as pair, sum(sent)::int as sent from insight_tag_hourly where project_id = ${project.id} group by 1 having sum(sent) <> 0 order by 1`),
  );
  return Object.fromEntries(rows.map((r) => [r.pair, Number(r.sent)]));
}

describe("the tag rollup", () => {
  it("is built by the refresher per name=value, a message counted under each of its tags", async () => {
    await send(a, "t-1", [{ name: "category", value: "reset" }], { status: "delivered" });
    await send(a, "t-2", [{ name: "category", value: "reset" }], { status: "bounced" });
    await send(a, "t-3", [{ name: "category", value: "invoice" }, { name: "plan", value: "pro" }], { status: "delivered" });
    await send(a, "t-4", [], { status: "delivered" }); // no tag: in no row
    await event(a, "t-3", "open", 1);
    await refreshInsight();
    expect(await figures(a)).toEqual({
      "category=reset": { sent: 2, delivered: 1, bounced: 1, opened: 0 },
      "category=invoice": { sent: 1, delivered: 1, bounced: 0, opened: 1 },
      "plan=pro": { sent: 1, delivered: 1, bounced: 0, opened: 1 },
    });
    // Refreshing everything again changes nothing: the rollup follows the state, not the marks.
    await (await db()).execute(sql`insert into insight_dirty (message_id, project_id) select id, project_id from indexed_messages`);
    await refreshInsight();
    expect((await figures(a))["category=reset"]).toEqual({ sent: 2, delivered: 1, bounced: 1, opened: 0 });
  });

  it("follows a tag the service reports only later, and an event arriving later", async () => {
    // The stream knows the message first, without its tags.
    await event(a, "late-1", "sent", 1);
    await event(a, "late-1", "delivery", 1);
    await refreshInsight();
    expect((await figures(a))["category=welcome"]).toBeUndefined();
    // A re-read brings the tags.
    const message: Message = {
      id: "late-1",
      from: "Shop <shop@acme.test>",
      to: ["late@example.com"],
      subject: "Welcome",
      status: "delivered",
      direction: "outbound",
      createdAt: new Date().toISOString(),
      tags: [{ name: "category", value: "welcome" }],
      events: [],
    };
    await indexServiceMessage(a.id, message);
    await refreshInsight();
    expect((await figures(a))["category=welcome"]).toEqual({ sent: 1, delivered: 1, bounced: 0, opened: 0 });
    // A complaint and an open later: the row moves with the message.
    await event(a, "late-1", "open", 2);
    await refreshInsight();
    expect((await figures(a))["category=welcome"]).toEqual({ sent: 1, delivered: 1, bounced: 0, opened: 1 });
    await event(a, "late-1", "bounce", 3);
    await refreshInsight();
    const after = (await figures(a))["category=welcome"]!;
    expect(after.sent).toBe(1);
    expect(after.delivered + after.bounced).toBe(1);
  });

  it("keeps each project's tags to itself", async () => {
    await send(b, "b-1", [{ name: "category", value: "reset" }], { status: "bounced" });
    await send(b, "b-2", [{ name: "category", value: "only-b" }], { status: "delivered" });
    await refreshInsight();
    expect(await figures(b)).toEqual({
      "category=reset": { sent: 1, delivered: 0, bounced: 1, opened: 0 },
      "category=only-b": { sent: 1, delivered: 0 + 1, bounced: 0, opened: 0 },
    });
    const mine = await figures(a);
    expect(mine["category=reset"]).toEqual({ sent: 2, delivered: 1, bounced: 1, opened: 0 });
    expect(mine["category=only-b"]).toBeUndefined();
  });

  it("lets an erased message and a pruned one leave their tags' figures", async () => {
    await send(a, "erase-1", [{ name: "category", value: "erasure" }], { to: "gone@example.com", status: "delivered" });
    await send(a, "erase-2", [{ name: "category", value: "erasure" }], { to: "kept@example.com", status: "delivered" });
    await send(a, "old-1", [{ name: "category", value: "old" }], { status: "delivered", createdAt: new Date(Date.now() - 100 * DAY) });
    await refreshInsight();
    expect((await figures(a))["category=erasure"]?.sent).toBe(2);
    expect((await rollupSums(a))["category=old"]).toBe(1);

    const d = await db();
    await d.transaction((tx) => eraseMessages(tx, a.id, ["erase-1"], "gone@example.com", "hash"));
    await refreshInsight();
    expect((await figures(a))["category=erasure"]?.sent).toBe(1);

    await pruneOnce({ cutoff: new Date(Date.now() - 90 * DAY), batchSize: 10, pauseMs: 0 });
    await refreshInsight();
    expect((await rollupSums(a))["category=old"]).toBeUndefined();
    const facts = rowsOf<{ n: number }>(await d.execute(sql`select count(*)::int as n from insight_tag_facts where message_id in ('erase-1', 'old-1')`));
    expect(facts[0]!.n).toBe(0);
  });

  it("an erasure takes out a tag that names the address, and the message counts under its redacted tag", async () => {
    const e = await registerProject({ externalId: "tags-erase" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
    const { user } = await createUser(createUserRequest.parse({ email: "support@staff.test", role: "support", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR);
    const actor: Actor = { id: user.id, email: user.email, name: null, role: "support", active: true, allProjects: true, projectIds: [], sessionId: "s", authAt: null };
    await send(e, "named-1", [{ name: "customer", value: "Ada@Example.com" }, { name: "category", value: "receipt" }], { to: "bob@example.com", status: "delivered" });
    await send(e, "named-2", [{ name: "customer", value: "Ada@Example.com" }], { to: "cy@example.com", status: "bounced" });
    await refreshInsight();
    expect((await figures(e))["customer=Ada@Example.com"]).toEqual({ sent: 2, delivered: 1, bounced: 1, opened: 0 });

    await eraseRecipient(e, actor, "ada@example.com", { confirmEmail: "ada@example.com" });
    await refreshInsight();
    const d = await db();
    for (const table of ["insight_tag_keys", "insight_tag_facts", "insight_tag_hourly"]) {
      const [row] = rowsOf<{ n: number }>(await d.execute(sql`select count(*)::int as n from ${sql.raw(table)} t where t::text ilike '%ada@example.com%'`));
      expect([table, row!.n]).toEqual([table, 0]);
    }
    const after = await figures(e);
    expect(Object.keys(after).some((k) => k.toLowerCase().includes("ada@example.com"))).toBe(false);
    expect(after["category=receipt"]).toEqual({ sent: 1, delivered: 1, bounced: 0, opened: 0 });
    // Both messages are still counted, under the tag as the scrub left it.
    const customer = Object.entries(after).filter(([k]) => k.startsWith("customer="));
    expect(customer.reduce((n, [, v]) => n + v.sent, 0)).toBe(2);
  });

  it(`keeps at most ${INSIGHT_TAG_PAIRS_MAX} pairs per project, the rest under "other tags", and frees the place of a pair gone idle`, async () => {
    const c = await registerProject({ externalId: "tags-cap" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
    const d = await db();
    // Many messages with one pair, then a pair per message (an order number as a tag).
    for (let i = 0; i < 3; i++) await send(c, `cap-common-${i}`, [{ name: "category", value: "common" }], { status: "delivered" });
    await refreshInsight();
    const ids = Array.from({ length: INSIGHT_TAG_PAIRS_MAX + 4 }, (_, i) => `cap-${i}`);
    await recordSentMessages(
      ids.map((id, i) => ({
        projectId: c.id,
        messageId: id,
        request: { from: { email: "shop@acme.test" }, to: [{ email: `${id}@example.com` }], subject: "Hi", text: "x", tags: [{ name: "order", value: String(1000 + i) }] },
        sentBy: null,
        idempotencyKey: null,
        source: "dashboard" as const,
        status: "delivered",
      })),
    );
    await refreshInsight({ batchSize: 40 });
    const kept = rowsOf<{ n: number }>(await d.execute(sql`select count(*)::int as n from insight_tag_keys where project_id = ${c.id}`))[0]!.n;
    expect(kept).toBe(INSIGHT_TAG_PAIRS_MAX);
    const rows = await figures(c, ["sent"]);
    expect(Object.keys(rows)).toHaveLength(INSIGHT_TAG_PAIRS_MAX + 1);
    expect(rows["category=common"]).toEqual({ sent: 3 });
    expect(rows["(other)"]).toEqual({ sent: 5 }); // 104 order numbers, 99 kept
    expect(Object.values(rows).reduce((n, r) => n + r.sent, 0)).toBe(3 + ids.length);
    // Other projects are not held by this one's cap.
    await send(a, "a-after-cap", [{ name: "order", value: "1" }], { status: "delivered" });
    await refreshInsight();
    expect((await figures(a))["order=1"]).toEqual({ sent: 1, delivered: 1, bounced: 0, opened: 0 });

    // A pair none of whose messages is recent leaves, and the next new pair takes its place.
    await d.execute(sql`update insight_tag_keys set last_at = now() - interval '40 days' where project_id = ${c.id} and name = 'category'`);
    await send(c, "cap-new", [{ name: "category", value: "fresh" }], { status: "delivered" });
    await refreshInsight();
    const after = await figures(c, ["sent"]);
    expect(after["category=fresh"]).toEqual({ sent: 1 });
    expect(after["category=common"]).toEqual({ sent: 3 }); // its counted messages stay under it
    expect(after["(other)"]).toEqual({ sent: 5 });
  });
});
