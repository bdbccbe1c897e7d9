import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { db, openDatabase } from "@/lib/server/db";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { webhookDeliveries } from "@/lib/server/db/schema/webhook-deliveries";
import { useTestDb } from "@/lib/server/db/test-db";
import type { Actor, Project } from "@/lib/server/gate/access";
import { eraseRecipient } from "@/lib/server/retention/erase";
import { json, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { tablesNaming, tablesNamingEscaped } from "@/lib/test/naming";
import { DELIVERY_LOG } from "@/lib/schemas/webhook-deliveries";
import { readDeliveryLog, resetDeliveryLogMemory, writeDeliveryNotes, type DeliveryNote } from "./delivery-log";
import { ingestDelivery, ingestStream } from "./ingest";
import { processAgain } from "./process-again";
import { streamedTestProject } from "@/lib/test/project-db";

/**
 * The delivery log: every delivery that reaches the ingest, with what was done, its body
 * redacted and cut, at most DELIVERY_LOG.rows per project however it is written, erasures
 * holding, and "process again" going the fresh delivery's way.
 */
const SECRET = `whsec_${Buffer.from("log-secret-log-secret-log-secret").toString("base64")}`;
const actor = { id: "u-1", email: "admin@staff.test", name: null, role: "admin", active: true, allProjects: true, projectIds: [], sessionId: "s", authAt: null } as Actor;
let service: TestServer;
let dispose: () => Promise<void>;
let project: Project;
let n = 0;

beforeAll(async () => {
  service = await startHttpServer((req, res) => {
    if (req.method === "POST" && req.url === "/v1/webhooks") {
      const b = JSON.parse(req.body);
      return json(res, 201, { id: `wh_${++n}`, url: b.url, enabled: true, eventTypes: b.eventTypes, signingSecret: SECRET, createdAt: new Date().toISOString() });
    }
    return json(res, 404, { error: { message: "not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000" });
  ({ dispose } = await useTestDb());
  project = await streamedTestProject("logged");
});
afterAll(async () => {
  await dispose();
  await service.close();
});

function signed(body: string, id = `whd_${++n}`, secret = SECRET) {
  const at = new Date();
  return new Headers({ "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) });
}
const sent = (messageId: string, extra: Record<string, unknown> = {}) => JSON.stringify({ type: "sent", createdAt: new Date().toISOString(), data: { messageId, to: ["ada@example.com"], subject: "Hi", ...extra } });
const deliver = (body: string, headers = signed(body)) => ingestDelivery(project.externalId, body, headers);
const clear = async () => {
  resetDeliveryLogMemory();
  await (await db()).delete(webhookDeliveries);
};

describe("the delivery log", () => {
  it("shows each delivery with its signature result and what was done, newest first", async () => {
    await clear();
    const body = sent("em_log_1");
    const headers = signed(body, "whd_first");
    expect((await deliver(body, headers)).status).toBe(204);
    expect((await deliver(body, headers)).status).toBe(204);
    expect((await deliver(JSON.stringify({ type: "sent", data: { nothing: 1 } }))).status).toBe(202);
    expect((await deliver(body, signed(body, "whd_forged", `whsec_${Buffer.from("someone-else-someone-else-123456").toString("base64")}`))).status).toBe(401);
    expect((await deliver(body, new Headers({ "content-type": "application/json" }))).status).toBe(401);

    const log = await readDeliveryLog(project.id);
    expect(log.map((d) => [d.outcome, d.webhookId, d.verified])).toEqual([
      ["refused", null, false],
      ["refused", "whd_forged", false],
      ["unusable", expect.stringMatching(/^whd_/), true],
      ["duplicate", "whd_first", true],
      ["recorded", "whd_first", true],
    ]);
    expect(log[0]).toMatchObject({ body: null, signature: expect.stringContaining("no webhook-id"), canProcessAgain: false });
    expect(log[1]).toMatchObject({ signature: "the signature does not match the signing secret", canProcessAgain: false });
    expect(log[2]!.reason).toContain("no message id");
    expect(log[4]).toMatchObject({ eventType: "sent", messageId: "em_log_1", signature: "verified", bodyCut: false, canProcessAgain: true });
  });

  it("keeps the body with addresses masked, secrets removed, cut to 4 KB", async () => {
    await clear();
    const long = sent("em_log_2", { html: `<p>${"x".repeat(20_000)} carol@example.com</p>`, apiKey: "sk_live_abcdef", link: "https://acme.test/u?token=tok_secret_1" });
    await deliver(long);
    const short = sent("em_log_3", { apiKey: "sk_live_abcdef", link: "https://user:pw_secret@acme.test/x" });
    await deliver(short);
    const [second, first] = await readDeliveryLog(project.id);
    expect(first!.body!.length).toBeLessThanOrEqual(DELIVERY_LOG.bodyChars);
    expect(first).toMatchObject({ bodyCut: true, bodyBytes: Buffer.byteLength(long) });
    expect(second).toMatchObject({ bodyCut: false });
    for (const d of [first!, second!]) {
      expect(d.body).toContain("***@example.com");
      expect(d.body).not.toContain("ada@");
      expect(d.body).not.toContain("sk_live");
    }
    expect(second!.body).not.toContain("pw_secret");
    expect(JSON.parse(second!.body!).data.messageId).toBe("em_log_3");
  });

  it("never holds more than DELIVERY_LOG.rows rows of a project, the newest", async () => {
    await clear();
    const note = (i: number): DeliveryNote => ({ projectId: project.id, webhookId: `cap_${i}`, verified: true, signature: "verified", outcome: "recorded", raw: Buffer.from(`{"i":${i}}`) });
    const d = await db();
    for (let round = 0; round < 3; round++) {
      await writeDeliveryNotes(d, Array.from({ length: 90 }, (_, i) => note(round * 90 + i)));
      const [{ count }] = rowsOf<{ count: number }>(await d.execute(sql`select count(*)::int as count from webhook_deliveries where project_id = ${project.id}`));
      expect(count).toBe(Math.min((round + 1) * 90, DELIVERY_LOG.rows));
    }
    const kept = await readDeliveryLog(project.id);
    expect(kept).toHaveLength(DELIVERY_LOG.rows);
    expect(kept.at(-1)!.webhookId).toBe(`cap_${270 - DELIVERY_LOG.rows}`);
  });

  it("keeps the newest DELIVERY_LOG.problems refused or unusable deliveries past the newest DELIVERY_LOG.rows, and no more", async () => {
    await clear();
    const note = (id: string, outcome: DeliveryNote["outcome"]): DeliveryNote => ({ projectId: project.id, webhookId: id, verified: outcome !== "refused", signature: "verified", outcome, raw: null });
    const d = await db();
    // 60 problems (refused and unusable, alternating), an older duplicate, then a busy project's flood of recorded ones.
    await writeDeliveryNotes(d, [note("old_duplicate", "duplicate"), ...Array.from({ length: 60 }, (_, i) => note(`problem_${i}`, i % 2 ? "unusable" : "refused"))]);
    for (let round = 0; round < 3; round++) {
      await writeDeliveryNotes(d, Array.from({ length: 100 }, (_, i) => note(`flood_${round * 100 + i}`, "recorded")));
    }
    const kept = await readDeliveryLog(project.id);
    expect(kept).toHaveLength(DELIVERY_LOG.rows + DELIVERY_LOG.problems);
    expect(kept.slice(0, DELIVERY_LOG.rows).every((r) => r.outcome === "recorded")).toBe(true);
    expect(kept.slice(DELIVERY_LOG.rows).map((r) => r.webhookId)).toEqual(Array.from({ length: DELIVERY_LOG.problems }, (_, i) => `problem_${59 - i}`));
    expect(kept.some((r) => r.webhookId === "old_duplicate" || r.webhookId === "flood_99")).toBe(false);
    const [{ count }] = rowsOf<{ count: number }>(await d.execute(sql`select count(*)::int as count from webhook_deliveries where project_id = ${project.id}`));
    expect(count).toBe(DELIVERY_LOG.rows + DELIVERY_LOG.problems);
  });

  it("keeps an erased address out, before and after the erasure", async () => {
    await clear();
    const ERASED = "erase-log@example.com";
    await deliver(sent("em_log_4", { note: "erase-log%40example.com", replyTo: ERASED }));
    await readDeliveryLog(project.id);
    // Noted before the erasure, written after it: the flush's redactor takes it out.
    await deliver(sent("em_log_4b", { note: "erase-log%40example.com" }));
    await eraseRecipient(project, { ...actor, role: "support" } as Actor, ERASED, { confirmEmail: ERASED });
    await deliver(sent("em_log_5", { note: "erase-log%40example.com" }));
    await readDeliveryLog(project.id);
    expect((await tablesNamingEscaped(await db(), ERASED)).webhook_deliveries).toBeUndefined();
    expect((await tablesNaming(await db(), ["erase-log"])).webhook_deliveries).toBeUndefined();
    // The one written before the erasure went; the later ones are kept, the address replaced by its marker.
    expect((await readDeliveryLog(project.id)).map((d) => d.messageId)).toEqual(["em_log_5", "em_log_4b"]);
  });

  it("processes a recorded delivery again as a fresh one: a duplicate, its message read again", async () => {
    await clear();
    const body = sent("em_log_6");
    await deliver(body, signed(body, "whd_again"));
    const [row] = await readDeliveryLog(project.id);
    await (await db()).delete(messageRereads);
    const again = await processAgain(project, actor, row!.id);
    expect(again).toEqual({ outcome: "duplicate", reason: null, reread: ["em_log_6"] });
    expect(await (await db()).select().from(messageRereads).where(eq(messageRereads.messageId, "em_log_6"))).toHaveLength(1);
  });

  it("refuses to process again a refused delivery, or one whose cut body names no message", async () => {
    await clear();
    const body = sent("em_log_7");
    await deliver(body, new Headers({ "content-type": "application/json" }));
    await deliver(JSON.stringify({ junk: "y".repeat(10_000) }));
    const [cut, refused] = await readDeliveryLog(project.id);
    await expect(processAgain(project, actor, refused!.id)).rejects.toMatchObject({ status: 409, message: expect.stringContaining("refused") });
    await expect(processAgain(project, actor, cut!.id)).rejects.toMatchObject({ status: 409, message: expect.stringContaining("cut") });
    await expect(processAgain(project, actor, "no-such-row")).rejects.toMatchObject({ status: 404 });
  });
});

describe("deliveries refused before their body was read", () => {
  const withLength = (bytes: number, id: string) => {
    const h = signed("{}", id);
    h.set("content-length", String(bytes));
    return h;
  };
  const neverEnds = () => ({ next: () => new Promise<Uint8Array | null>(() => {}), stop: () => {} });
  const counted = (d: { reason: string | null }) => Number(/\((\d+) deliveries refused/.exec(d.reason ?? "")?.[1] ?? 1);

  it("are noted without a body, naming the limit, with the webhook-id; a flood makes a few notes with a count", async () => {
    await clear();
    // The project's stream seen by this process, as any delivery before the flood does.
    expect((await deliver(sent("em_log_8"))).status).toBe(204);
    await readDeliveryLog(project.id);
    const FLOOD = 1_000;
    const tooLarge = await Promise.allSettled(Array.from({ length: FLOOD }, (_, i) => ingestStream(project.externalId, withLength(5 * 1024 * 1024, `whd_big_${i}`), neverEnds)));
    expect(tooLarge.every((r) => r.status === "rejected" && (r.reason as { status: number }).status === 413)).toBe(true);
    // A stranger's made-up names are never noted.
    await Promise.allSettled(Array.from({ length: 50 }, (_, i) => ingestStream(`made-up-${i}`, withLength(5 * 1024 * 1024, "whd_stranger"), neverEnds)));

    const log = await readDeliveryLog(project.id);
    const refused = log.filter((d) => d.outcome === "refused");
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(3);
    expect(refused.reduce((n, d) => n + counted(d), 0)).toBe(FLOOD);
    for (const d of refused) {
      expect(d).toMatchObject({ verified: false, body: null, bodyBytes: null, canProcessAgain: false, signature: "not checked", reason: expect.stringContaining("INGEST_MAX_BYTES") });
      expect(d.webhookId).toMatch(/^whd_big_/);
    }
    expect(refused.at(-1)!.webhookId).toBe("whd_big_0");
    expect(log).toHaveLength(refused.length + 1);
  });

  it("show the webhook-id as sent, without the other signature headers", async () => {
    await clear();
    expect((await deliver(sent("em_log_9"))).status).toBe(204);
    await clear();
    const bare = new Headers({ "webhook-id": "whd_bare", "content-length": String(5 * 1024 * 1024) });
    await expect(ingestStream(project.externalId, bare, neverEnds)).rejects.toMatchObject({ status: 413 });
    expect((await readDeliveryLog(project.id)).map((d) => [d.webhookId, d.outcome])).toEqual([["whd_bare", "refused"]]);
  });

  it("are noted when cut off while arriving or too slow", async () => {
    await clear();
    expect((await deliver(sent("em_log_10"))).status).toBe(204);
    await clear();
    const big = JSON.stringify({ pad: "z".repeat(1_100_000) });
    await expect(ingestDelivery(project.externalId, big, signed(big, "whd_chunked"))).rejects.toMatchObject({ status: 413 });
    await expect(ingestStream(project.externalId, withLength(100, "whd_slow"), neverEnds)).rejects.toMatchObject({ status: 408 });
    const log = await readDeliveryLog(project.id);
    expect(log.map((d) => [d.webhookId, d.outcome, d.body])).toEqual([
      ["whd_slow", "refused", null],
      ["whd_chunked", "refused", null],
    ]);
    expect(log[0]!.reason).toContain("REQUEST_BODY_MIN_RATE");
    expect(log[1]!.reason).toContain("INGEST_MAX_BYTES");
  });
});

const url = process.env.TEST_DATABASE_URL;
describe.skipIf(!url)("two instances writing the log at once (Postgres)", () => {
  it("still leaves at most DELIVERY_LOG.rows rows", async () => {
    await clear();
    const [{ name }] = rowsOf<{ name: string }>(await (await db()).execute(sql`select current_database() as name`));
    const second = new URL(url!);
    second.pathname = `/${name}`;
    const other = await openDatabase({ url: second.toString() });
    try {
      const note = (i: number): DeliveryNote => ({ projectId: project.id, webhookId: `two_${i}`, verified: false, signature: "x", outcome: "refused", raw: null });
      const d = await db();
      await writeDeliveryNotes(d, Array.from({ length: DELIVERY_LOG.rows }, (_, i) => note(i)));
      await Promise.all(Array.from({ length: 8 }, (_, w) => writeDeliveryNotes(w % 2 ? other.db : d, Array.from({ length: 30 }, (_, i) => note(1000 + w * 100 + i)))));
      const [{ count }] = rowsOf<{ count: number }>(await d.execute(sql`select count(*)::int as count from webhook_deliveries where project_id = ${project.id}`));
      expect(count).toBe(DELIVERY_LOG.rows);
    } finally {
      await other.close();
    }
  });
});
