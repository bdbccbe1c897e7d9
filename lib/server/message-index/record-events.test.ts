import { asc, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { recordDelivery } from "@/lib/server/event-stream/group-commit";
import type { DeliveredEvent } from "./payload";
import { recordEvent, recordEvents, type StreamEvent } from "./record-event";

/**
 * The ingest records concurrent deliveries together (group commit). Whatever the batching,
 * the index must end up exactly as if each event had been recorded alone, in arrival order.
 */
let dispose: () => Promise<void>;
let p1: string;
let p2: string;
const T0 = Date.parse("2026-03-01T10:00:00Z");
const at = (s: number) => new Date(T0 + s * 1000);

beforeAll(async () => {
  setTestEnv({ REREAD_COALESCE_MS: "1000" });
  ({ dispose } = await useTestDb());
  p1 = (await registerProject({ externalId: "p1" }, SYSTEM_ACTOR, { checkWithService: false })).id;
  p2 = (await registerProject({ externalId: "p2" }, SYSTEM_ACTOR, { checkWithService: false })).id;
});
afterAll(() => dispose());

const event = (messageId: string, type: string, extra: Partial<DeliveredEvent> = {}): DeliveredEvent => ({
  messageId, type, occurredAt: null, direction: null, from: null, to: null, subject: null, text: null, html: null, details: {}, ...extra,
});

/**
 * Two phases of events under one prefix: out of order, a key delivered twice, addresses and
 * subject arriving late, a timeless event, inbound mail, and an id that two projects use.
 */
function scenario(x: string): StreamEvent[][] {
  const e = (project: string, key: string, ev: DeliveredEvent): StreamEvent => ({ projectId: project, key: `${x}${key}`, event: ev });
  return [
    [
      e(p1, "k1", event(`${x}a`, "sent", { occurredAt: at(10), from: "Shop <shop@acme.test>", to: ["Ada@Example.com"], subject: "Order" })),
      e(p1, "k2", event(`${x}a`, "delivery", { occurredAt: at(20), details: { recipient: "ada@example.com" } })),
      e(p1, "k2", event(`${x}a`, "delivery", { occurredAt: at(20), details: { recipient: "ada@example.com" } })),
      e(p1, "k3", event(`${x}b`, "delivery", { occurredAt: at(30) })),
      e(p1, "k4", event(`${x}b`, "queued", { occurredAt: at(5), from: "shop@acme.test", subject: "Late subject" })),
      e(p1, "k5", event(`${x}c`, "inbound_received", { occurredAt: at(7), direction: "inbound", from: "bob@example.com", to: ["help@acme.test"], subject: "Help", text: "Hi", html: "<p>Hi</p>" })),
      e(p1, "k6", event(`${x}shared`, "sent", { occurredAt: at(1), to: ["one@example.com"] })),
      e(p2, "k6", event(`${x}shared`, "bounce", { occurredAt: at(2), to: ["two@example.com"] })),
    ],
    [
      e(p1, "k7", event(`${x}a`, "open", { occurredAt: at(40), details: { link: "https://acme.test/x" } })),
      e(p1, "k8", event(`${x}a`, "complaint", { occurredAt: at(50) })),
      e(p1, "k1", event(`${x}a`, "sent", { occurredAt: at(10) })),
      e(p1, "k9", event(`${x}b`, "sent", { occurredAt: at(3), to: ["carol@example.com", "Dan <dan@example.com>"] })),
      e(p1, "k10", event(`${x}b`, "teleported", { occurredAt: at(60) })),
      e(p1, "k11", event(`${x}d`, "delivery")),
      e(p1, "k12", event(`${x}d`, "open", { occurredAt: at(70), subject: "Found later", from: "shop@acme.test" })),
      e(p2, "k13", event(`${x}shared`, "delivery", { occurredAt: at(3) })),
    ],
  ];
}

/** Everything the events left in the index under a prefix, with the prefix taken off and moments of recording as "now". */
async function snapshot(x: string, since: number) {
  const d = await db();
  const strip = (v: unknown): unknown => {
    if (typeof v === "string") return v.replaceAll(x, "");
    if (v instanceof Date) return v.getTime() >= since ? "now" : v.toISOString();
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, w]) => [k, strip(w)]));
    return v;
  };
  const messages = await d.select().from(indexedMessages).where(like(indexedMessages.id, `${x}%`)).orderBy(asc(indexedMessages.id));
  const recipients = await d.select().from(indexedRecipients).where(like(indexedRecipients.messageId, `${x}%`));
  const events = await d.select().from(indexedEvents).where(like(indexedEvents.messageId, `${x}%`)).orderBy(asc(indexedEvents.seq));
  const rereads = await d.select().from(messageRereads).where(like(messageRereads.messageId, `${x}%`));
  return strip({
    messages: messages.map(({ updatedAt: _u, ...m }) => m),
    recipients: recipients.map((r) => `${r.messageId} ${r.role} ${r.email} ${r.createdAt.toISOString()}`).sort(),
    events: events.map(({ seq: _s, ...e }) => e),
    rereads: rereads.map((r) => `${r.projectId} ${r.messageId} ${r.reason} ${r.generation}`).sort(),
  });
}

describe("recording stream events in batches", () => {
  it("leaves the index exactly as recording them one at a time, in arrival order", async () => {
    const since = Date.now();
    const fresh: boolean[] = [];
    for (const phase of scenario("one_")) for (const s of phase) fresh.push(await recordEvent(s.projectId, s.key, s.event, 1000));
    const batched: boolean[] = [];
    for (const phase of scenario("all_")) batched.push(...(await recordEvents(phase, 1000)));

    expect(batched).toEqual(fresh);
    expect(fresh.filter((f) => !f)).toHaveLength(2); // k2 twice, k1 again
    const one = await snapshot("one_", since);
    expect(await snapshot("all_", since)).toEqual(one);

    // …and that picture is the right one.
    const byId = Object.fromEntries((one as { messages: { id: string }[] }).messages.map((m) => [m.id, m]));
    expect(byId.a).toMatchObject({ projectId: p1, status: "complained", from: "Shop <shop@acme.test>", to: ["Ada@Example.com"], subject: "Order", createdAt: at(10).toISOString(), lastEventAt: at(50).toISOString() });
    expect(byId.b).toMatchObject({ status: "delivered", from: "shop@acme.test", to: ["carol@example.com", "Dan <dan@example.com>"], subject: "Late subject", createdAt: at(3).toISOString(), lastEventAt: at(60).toISOString() });
    expect(byId.c).toMatchObject({ direction: "inbound", status: "received", text: "Hi", html: "<p>Hi</p>" });
    // Created by a timeless event (at the moment of recording), then an earlier timed one.
    expect(byId.d).toMatchObject({ status: "delivered", subject: "Found later", from: "shop@acme.test", createdAt: at(70).toISOString(), lastEventAt: "now" });
    expect(byId.shared).toMatchObject({ projectId: p1, status: "sent", to: ["one@example.com"] });
    const { recipients, events, rereads } = one as { recipients: string[]; events: unknown[]; rereads: string[] };
    expect(recipients.filter((r) => r.startsWith("b "))).toEqual([
      `b from shop@acme.test ${at(5).toISOString()}`,
      `b to carol@example.com ${at(3).toISOString()}`,
      `b to dan@example.com ${at(3).toISOString()}`,
    ]);
    expect(events).toHaveLength(14);
    expect(rereads).toEqual([`${p1} a event 0`, `${p1} b event 0`, `${p1} c event 0`, `${p1} d event 0`, `${p1} shared event 0`, `${p2} shared event 0`].sort());
  });

  it("concurrent deliveries, duplicates among them, each take their events once and get their own answers", async () => {
    const deliveries = Array.from({ length: 60 }, (_, i) => [
      { projectId: p1, key: `conc_${i % 40}`, event: event(`conc_m${i % 25}`, i % 2 ? "delivery" : "sent", { occurredAt: at(i), to: [`r${i % 25}@example.com`] }) },
    ]);
    const answers = await Promise.all(deliveries.map((events) => recordDelivery(events)));
    const d = await db();
    expect(answers.flat().filter(Boolean)).toHaveLength(40);
    // The first delivery of each key took it.
    expect(answers.slice(0, 40).every(([fresh]) => fresh)).toBe(true);
    expect(await d.select().from(indexedEvents).where(like(indexedEvents.webhookId, "conc_%"))).toHaveLength(40);
    expect(await d.select().from(indexedMessages).where(like(indexedMessages.id, "conc_m%"))).toHaveLength(25);
  });

  it("a delivery the database refuses fails alone; the others recorded with it are answered as usual", async () => {
    const good = (i: number) => [{ projectId: p1, key: `poison_ok_${i}`, event: event(`poison_m${i}`, "sent", { occurredAt: at(i) }) }];
    // Postgres text cannot hold a NUL character.
    const bad = [{ projectId: p1, key: "poison_bad", event: event("poison_bad", "sent", { details: { note: "a\u0000b" } }) }];
    const results = await Promise.allSettled([recordDelivery(good(1)), recordDelivery(good(2)), recordDelivery(bad), recordDelivery(good(3)), recordDelivery(good(4))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<boolean[]>).value)).toEqual([[true], [true], [true], [true]]);
    const d = await db();
    expect(await d.select().from(indexedMessages).where(like(indexedMessages.id, "poison_%"))).toHaveLength(4);
  });
});
