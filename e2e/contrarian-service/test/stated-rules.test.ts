import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_KEY, ALPHA, BETA, send, startContrarian, type TestContrarian } from "./harness";

/** What the interface states, which the contrarian must follow exactly. */
let t: TestContrarian;
beforeEach(() => {
  t = startContrarian();
});
afterEach(() => t.stop());

describe("success codes the interface states", () => {
  it("creation answers 201, reply 202, batch 207, preview 200, webhook delete 204", async () => {
    expect((await t.call("POST", "/v1/api-keys", { body: { name: "k" } })).status).toBe(201);
    expect((await t.call("POST", "/v1/domains", { body: { domain: "new.alpha.example" } })).status).toBe(201);
    expect((await t.call("POST", "/v1/contacts", { body: { email: "c@example.org" } })).status).toBe(201);
    expect((await t.call("POST", "/v1/suppressions", { body: { email: "s@example.org" } })).status).toBe(201);
    const hook = await t.call("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/h", eventTypes: ["delivery"] } });
    expect(hook.status).toBe(201);
    expect((await t.call("POST", "/v1/templates/preview", { body: { subject: "Hi {{a}}", data: { a: "b" } } })).status).toBe(200);
    const sent = await send(t, "someone@example.org");
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ status: "queued" });
    const reply = await t.call("POST", `/v1/emails/${sent.json.id}/reply`, { body: { text: "more" } });
    expect(reply.status).toBe(202);
    expect(reply.json).toMatchObject({ status: "queued" });
    expect((await t.call("DELETE", `/v1/webhooks/${hook.json.id}`)).status).toBe(204);
    expect((await t.call("POST", "/v1/emails/batch", { body: { emails: [] } })).status).toBe(422);
  });

  it("the api key's secret is returned once and authenticates; the webhook secret is only in the create answer", async () => {
    const key = await t.call("POST", "/v1/api-keys", { body: { name: "scoped", senderId: BETA } });
    expect(Object.keys(key.json)).toEqual(expect.arrayContaining(["id", "name", "secret"]));
    const listed = await t.call("GET", "/v1/domains", { key: key.json.secret, project: null });
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((d: { domain: string }) => d.domain)).toEqual(["mail.beta-two.example"]);

    const hook = await t.call("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/h", eventTypes: ["bounce"] } });
    const list = await t.call("GET", "/v1/webhooks");
    expect(list.text).not.toContain(hook.json.signingSecret);
    expect(list.json.data[0].signingSecret).toBe("[redacted]");
  });
});

describe("batch", () => {
  it("answers 207 with one entry per item, in order, each succeeding or failing alone", async () => {
    const good = { from: { email: "a@mail.alpha-one.example" }, to: [{ email: "x@example.org" }], subject: "s", text: "t" };
    const bad = { ...good, to: [{ email: "not-an-address" }] };
    const answer = await t.call("POST", "/v1/emails/batch", { body: { emails: [good, bad, good] } });
    expect(answer.status).toBe(207);
    expect(answer.json.data).toHaveLength(3);
    expect(answer.json.data[0]).toMatchObject({ index: 0, status: "queued", id: expect.any(String) });
    expect(answer.json.data[1]).toEqual({ index: 1, error: { message: expect.stringContaining("to[0].email"), code: "invalid_field", param: "to[0].email" } });
    expect(answer.json.data[2].id).not.toBe(answer.json.data[0].id);
    const retrieved = await t.call("GET", `/v1/emails/${answer.json.data[2].id}`);
    expect(retrieved.json.to).toEqual(["x@example.org"]);
  });

  it("refuses more than 100 emails, naming the field", async () => {
    const item = { from: { email: "a@b.example" }, to: [{ email: "x@example.org" }], subject: "s" };
    const answer = await t.call("POST", "/v1/emails/batch", { body: { emails: Array.from({ length: 101 }, () => item) } });
    expect(answer.status).toBe(422);
    expect(answer.json.errors).toEqual([{ field: "emails", message: "at most 100 emails" }]);
  });
});

describe("Idempotency-Key", () => {
  it("the same key returns the original result and sends nothing again, per project", async () => {
    const headers = { "Idempotency-Key": "once-1" };
    const first = await send(t, "a@example.org", {}, { headers });
    const again = await send(t, "a@example.org", {}, { headers });
    const otherBody = await send(t, "somebody-else@example.org", {}, { headers });
    expect(again.json).toEqual(first.json);
    expect(otherBody.json).toEqual(first.json);
    expect(again.headers.get("Idempotent-Replay")).toBe("yes");
    expect(t.rt.store.messages.size).toBe(1);

    const otherProject = await send(t, "a@example.org", {}, { headers, project: BETA });
    expect(otherProject.json.id).not.toBe(first.json.id);
    expect(t.rt.store.messages.size).toBe(2);
  });

  it("covers replies too, and a failed request does not use the key up", async () => {
    const original = await send(t, "a@example.org");
    const headers = { "Idempotency-Key": "reply-1" };
    const one = await t.call("POST", `/v1/emails/${original.json.id}/reply`, { body: { text: "x" }, headers });
    const two = await t.call("POST", `/v1/emails/${original.json.id}/reply`, { body: { text: "x" }, headers });
    expect(two.status).toBe(202);
    expect(two.json).toEqual(one.json);

    const refused = await send(t, "bad", {}, { headers: { "Idempotency-Key": "fix-1" } });
    expect(refused.status).toBe(422);
    const fixed = await send(t, "good@example.org", {}, { headers: { "Idempotency-Key": "fix-1" } });
    expect(fixed.status).toBe(200);
  });
});

describe("project selection", () => {
  it("an account-wide key names the project in X-Service-Product or its alias, and must on the listed operations", async () => {
    const missing = await t.call("GET", "/v1/templates", { project: null });
    expect(missing.status).toBe(422);
    expect(missing.json.errors[0].field).toBe("X-Service-Product");
    const unknown = await t.call("GET", "/v1/templates", { project: "nope" });
    expect(unknown.status).toBe(422);
    const alias = await t.call("GET", "/v1/suppressions", { project: null, headers: { "X-Service-Sender": BETA } });
    expect(alias.status).toBe(200);
    expect(alias.json.data.every((s: { email: string }) => s.email.endsWith("beta-two.example"))).toBe(true);
  });

  it("a project-scoped key implies its project and reaches nothing of another", async () => {
    const key = (await t.call("POST", "/v1/api-keys", { body: { name: "alpha only", senderId: ALPHA } })).json.secret as string;
    const mine = await send(t, "x@example.org", {}, { key, project: null });
    expect(mine.status).toBe(200);
    const theirs = await send(t, "y@example.org", {}, { project: BETA });
    expect((await t.call("GET", `/v1/emails/${mine.json.id}`, { key, project: null })).status).toBe(200);
    const hidden = await t.call("GET", `/v1/emails/${theirs.json.id}`, { key, project: null });
    expect(hidden.status).toBe(404);
    // The account-wide key reaches a message by id without naming its project.
    expect((await t.call("GET", `/v1/emails/${theirs.json.id}`, { project: null })).status).toBe(200);
    // A project key cannot make a key for another project.
    expect((await t.call("POST", "/v1/api-keys", { key, project: null, body: { name: "x", senderId: BETA } })).status).toBe(403);
  });

  it("refuses a missing or unknown key with a plain-text 403", async () => {
    for (const key of [null, "wrong"]) {
      const answer = await t.call("GET", "/v1/templates", { key });
      expect(answer.status).toBe(403);
      expect(answer.headers.get("Content-Type")).toContain("text/plain");
    }
    expect((await t.call("GET", "/v1/templates", { key: ACCOUNT_KEY })).status).toBe(200);
  });
});

describe("paging", () => {
  it("pages of 3 by default, {data, nextCursor}, oldest first, until nextCursor is null", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await t.call("GET", `/v1/templates${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.json).sort()).toEqual(["data", "nextCursor"]);
      expect(answer.json.data.length).toBeLessThanOrEqual(3);
      seen.push(...answer.json.data.map((x: { name: string }) => x.name));
      cursor = answer.json.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(["Hello aboard", "Password help", "Invoice", "Plain notice"]);
    const all = await t.call("GET", "/v1/templates?limit=100");
    expect(all.json.data).toHaveLength(4);
    expect(all.json.nextCursor).toBeNull();
  });

  it("refuses a limit outside 1..100 and a cursor it did not give out, naming the parameter", async () => {
    for (const limit of ["0", "101", "two"]) {
      const answer = await t.call("GET", `/v1/suppressions?limit=${limit}`);
      expect(answer.status).toBe(422);
      expect(answer.json.errors[0].field).toBe("limit");
    }
    const foreign = (await t.call("GET", "/v1/templates?limit=1")).json.nextCursor;
    const answer = await t.call("GET", `/v1/suppressions?cursor=${encodeURIComponent(foreign)}`);
    expect(answer.status).toBe(422);
    expect(answer.json.errors[0].field).toBe("cursor");
  });

  it("filters domains by status while list items carry none", async () => {
    await t.call("POST", "/v1/domains", { body: { domain: "never-verifies.example" } });
    const verified = await t.call("GET", "/v1/domains?status=verified");
    expect(verified.json.data.map((d: { domain: string }) => d.domain)).toEqual(["mail.alpha-one.example"]);
    expect(verified.json.data[0]).not.toHaveProperty("status");
    const pending = await t.call("GET", "/v1/domains?status=pending");
    expect(pending.json.data.map((d: { domain: string }) => d.domain)).toEqual(["never-verifies.example"]);
  });
});
