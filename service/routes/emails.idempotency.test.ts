import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEmailRequest } from "../../contract/wire";
import { idempotencyKeys, messages } from "../db/schema";
import { canonicalJson, sha256 } from "../lib/crypto";
import type { TestService } from "../test/harness";
import { createSendingService, sendableEmail } from "../test/sending-fixtures";

let svc: TestService;
const base = sendableEmail;

beforeAll(async () => {
  svc = await createSendingService();
});
afterAll(() => svc.close());

const countMessages = async () => (await svc.db.select({ n: count() }).from(messages))[0].n;

describe("Idempotency-Key", () => {
  const withKey = (key: string, project = "alpha") => ({ project, headers: { "Idempotency-Key": key } });

  it("replays the original answer for the same key and body, sending nothing again", async () => {
    const before = await countMessages();
    const first = await svc.sendEmail(base, withKey("k-replay"));
    const again = await svc.sendEmail({ subject: "Hi", text: "Hello", to: base.to, from: base.from }, withKey("k-replay")); // key order differs
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await countMessages()).toBe(before + 1);
  });

  it("answers 409 idempotency_conflict for the same key with another body or operation", async () => {
    await svc.sendEmail(base, withKey("k-conflict"));
    const res = await svc.sendEmail({ ...base, subject: "Other" }, withKey("k-conflict"));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: "idempotency_conflict", param: "Idempotency-Key" });
    const batch = await svc.call("POST", "/v1/emails/batch", { body: { emails: [base] }, ...withKey("k-conflict") });
    expect(batch.status).toBe(409);
  });

  it("sends once when two requests with one key arrive together", async () => {
    const before = await countMessages();
    const answers = await Promise.all([svc.sendEmail(base, withKey("k-race")), svc.sendEmail(base, withKey("k-race")), svc.sendEmail(base, withKey("k-race"))]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    expect(statuses).toContain(202);
    const ids = new Set<string>();
    for (const r of answers) {
      const body = await r.json();
      if (r.status === 202) ids.add(body.id);
      else expect(body.error.code).toBe("idempotency_in_flight");
    }
    expect(ids.size).toBe(1);
    expect(await countMessages()).toBe(before + 1);
  });

  it("keeps keys per project, releases a key whose request failed, and ignores expired keys", async () => {
    const a = await (await svc.sendEmail(base, withKey("k-shared"))).json();
    const b = await (await svc.sendEmail({ ...base, from: { email: "a@beta.test" } }, withKey("k-shared", "beta"))).json();
    expect(a.id).not.toBe(b.id);

    expect((await svc.sendEmail({ ...base, from: { email: "x@unknown.test" } }, withKey("k-failed"))).status).toBe(403);
    expect((await svc.sendEmail(base, withKey("k-failed"))).status).toBe(202);

    const old = await (await svc.sendEmail(base, withKey("k-old"))).json();
    await svc.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k-old'`);
    const fresh = await svc.sendEmail({ ...base, subject: "New" }, withKey("k-old"));
    expect(fresh.status).toBe(202);
    expect((await fresh.json()).id).not.toBe(old.id);
  });

  it("answers 409 idempotency_in_flight while the first request runs, and takes over one abandoned by a crash", async () => {
    const body = { ...base, subject: "Busy" };
    const hash = sha256(canonicalJson({ method: "POST", path: "/v1/emails", body: sendEmailRequest.parse(body) }));
    await svc.db.insert(idempotencyKeys).values({ projectId: svc.alpha.id, key: "k-busy", requestHash: hash, state: "in_flight" });
    const busy = await svc.sendEmail(body, withKey("k-busy"));
    expect(busy.status).toBe(409);
    expect(busy.headers.get("Retry-After")).toBe("1");
    expect((await busy.json()).error).toMatchObject({ code: "idempotency_in_flight", param: "Idempotency-Key" });

    await svc.db.execute(sql`update idempotency_keys set created_at = now() - interval '10 minutes' where key = 'k-busy'`);
    const taken = await svc.sendEmail(body, withKey("k-busy"));
    expect(taken.status).toBe(202);
    expect((await svc.sendEmail(body, withKey("k-busy"))).headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("validates the key itself", async () => {
    const res = await svc.sendEmail(base, withKey("x".repeat(300)));
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("idempotency-key");
  });
});

describe("fault switch", () => {
  it("fails every Nth batch with 503 before doing anything", async () => {
    const faulty = await createSendingService({ config: { SERVICE_FAULT_BATCH_EVERY: 2 } });
    try {
      const post = () => faulty.call("POST", "/v1/emails/batch", { body: { emails: [base] }, headers: { "Idempotency-Key": "f" } });
      expect((await post()).status).toBe(207);
      const failed = await post();
      expect(failed.status).toBe(503);
      expect((await failed.json()).error.code).toBe("fault_injected");
      expect((await post()).headers.get("Idempotent-Replayed")).toBe("true");
      expect((await faulty.db.select({ n: count() }).from(messages))[0].n).toBe(1);
    } finally {
      await faulty.close();
    }
  });
});
