import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { listAudit, recordAudit, redact, withAudit } from "./audit";
import { useTestDb } from "./db/test-db";
import { setTestEnv } from "./test-helpers";
import { auditQuery } from "@/lib/schemas/audit";

let dispose: () => Promise<void>;
const ada = { id: "u-ada", email: "ada@example.com" };
const bob = { id: "u-bob", email: "bob@example.com" };

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

describe("redact", () => {
  it("drops anything named like a secret, at any depth, and keeps the rest", () => {
    const out = redact({
      name: "staging",
      keyId: "key_1",
      secret: "sk_1",
      apiKey: "k",
      api_key: "k",
      signingSecret: "whsec",
      password: "p",
      newPassword: "p",
      accessToken: "t",
      Authorization: "Bearer x",
      nested: { items: [{ token: "t", email: "a@b.co" }], idempotencyKey: "i" },
    });
    expect(out).toEqual({ name: "staging", keyId: "key_1", nested: { items: [{ email: "a@b.co" }] } });
  });
});

describe("recordAudit and listAudit", () => {
  it("never stores a secret", async () => {
    await recordAudit({ actor: ada, action: "api_key.create", project: "demo", target: "staging", outcome: "success", detail: { secret: "sk_live_leak", name: "staging" } });
    const { data } = await listAudit(auditQuery.parse({ action: "api_key.create" }));
    expect(data[0].detail).toEqual({ name: "staging" });
    expect(JSON.stringify(data)).not.toContain("sk_live_leak");
  });

  it("filters by text, action, actor, project, outcome and time, newest first", async () => {
    await recordAudit({ actor: bob, action: "webhook.create", project: "shop", target: "https://hooks.example/x", outcome: "success" });
    await recordAudit({ actor: bob, action: "webhook.delete", project: "shop", target: "wh_9", outcome: "failure", detail: { error: "not_found" } });
    expect((await listAudit(auditQuery.parse({ q: "hooks.example" }))).data.map((e) => e.action)).toEqual(["webhook.create"]);
    expect((await listAudit(auditQuery.parse({ q: "not_found" }))).data.map((e) => e.target)).toEqual(["wh_9"]);
    expect((await listAudit(auditQuery.parse({ actorId: "u-bob" }))).data.map((e) => e.action)).toEqual(["webhook.delete", "webhook.create"]);
    expect((await listAudit(auditQuery.parse({ project: "demo" }))).data).toHaveLength(1);
    expect((await listAudit(auditQuery.parse({ outcome: "failure" }))).data.map((e) => e.action)).toEqual(["webhook.delete"]);
    expect((await listAudit(auditQuery.parse({ from: new Date(Date.now() + 60_000).toISOString() }))).data).toHaveLength(0);
    expect((await listAudit(auditQuery.parse({ to: new Date(Date.now() - 60_000).toISOString() }))).data).toHaveLength(0);
    // LIKE wildcards in the search are literal.
    expect((await listAudit(auditQuery.parse({ q: "%" }))).data).toHaveLength(0);
  });

  it("pages with a cursor without skipping or repeating", async () => {
    for (let i = 0; i < 7; i++) await recordAudit({ actor: ada, action: "page.test", target: `t${i}`, outcome: "success" });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAudit({ action: "page.test", limit: 3, cursor });
      seen.push(...page.data.map((e) => e.target!));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(["t6", "t5", "t4", "t3", "t2", "t1", "t0"]);
  });

  it("refuses a malformed cursor with a 400 naming it", async () => {
    const err = await listAudit(auditQuery.parse({ cursor: "garbage" })).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect([err.status, err.param]).toEqual([400, "cursor"]);
  });
});

describe("withAudit", () => {
  it("records success, and failure with the error code, rethrowing it", async () => {
    await withAudit({ actor: ada, action: "thing.do", target: "x", detail: { n: 1 } }, async () => 1);
    const err = new AppError(409, "conflict", "no");
    await expect(withAudit({ actor: ada, action: "thing.do", target: "y" }, async () => { throw err; })).rejects.toBe(err);
    const { data } = await listAudit(auditQuery.parse({ action: "thing.do" }));
    expect(data.map((e) => [e.target, e.outcome])).toEqual([["y", "failure"], ["x", "success"]]);
    expect(data[0].detail).toMatchObject({ error: "conflict" });
  });
});
