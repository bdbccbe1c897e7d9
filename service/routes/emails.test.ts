import { count, eq } from "drizzle-orm";
import type { Table } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { message as messageShape } from "../../contract/wire";
import { createApp } from "../app";
import { messages } from "../db/schema";
import { createApiKey } from "../lib/accounts";
import type { TestService } from "../test/harness";
import { addTemplate, addVerifiedDomain, createSendingService, sendableEmail } from "../test/sending-fixtures";
import { replySubject } from "./emails";

let svc: TestService;
const base = sendableEmail;

beforeAll(async () => {
  svc = await createSendingService();
  await addVerifiedDomain(svc.db, svc.alpha.id, "pending.test", { status: "pending" });
  await addTemplate(svc.db, svc.alpha.id, { slug: "welcome", subject: "Welcome {{name}}", html: "<p>Hi {{name}}</p>" });
});
afterAll(() => svc.close());

const countMessages = async () => (await svc.db.select({ n: count() }).from(messages))[0].n;

describe("POST /v1/emails", () => {
  it("accepts a send (202 queued) that GET returns with its events", async () => {
    const res = await svc.sendEmail({ ...base, cc: [{ email: "cc@example.com" }], tags: [{ name: "kind", value: "welcome" }], headers: { "X-Campaign": "c1" } });
    expect(res.status).toBe(202);
    const { id, status } = await res.json();
    expect(status).toBe("queued");
    const got = await svc.call("GET", `/v1/emails/${id}`);
    expect(got.status).toBe(200);
    const body = messageShape.parse(await got.json());
    expect(body).toMatchObject({
      id, from: "Alpha Team <hello@alpha.test>", to: ["delivered@example.com"], cc: ["cc@example.com"], subject: "Hi",
      status: "queued", direction: "outbound", text: "Hello", headers: { "X-Campaign": "c1" }, tags: [{ name: "kind", value: "welcome" }], threadId: id,
    });
    expect(body.events.map((e) => e.type)).toEqual(["accepted", "queued"]);
  });

  it("names the field of invalid input", async () => {
    const bad = await svc.sendEmail({ ...base, to: [{ email: "nope" }] });
    expect(bad.status).toBe(400);
    const { error } = await bad.json();
    expect(error).toMatchObject({ code: "validation_error", param: "to.0.email" });
    expect(error.message).toMatch(/^to\.0\.email: /);
    expect((await (await svc.sendEmail({ ...base, subject: undefined })).json()).error.param).toBe("subject");
    expect((await (await svc.sendEmail({ ...base, to: [] })).json()).error.param).toBe("to");
    expect((await (await svc.sendEmail({ ...base, scheduledAt: "2020-01-01T00:00:00Z" })).json()).error.param).toBe("scheduledAt");
    expect((await (await svc.sendEmail({ ...base, attachments: [{ filename: "a.txt", content: "***" }] })).json()).error.param).toBe("attachments.0.content");
    const notJson = await svc.app.request("/v1/emails", {
      method: "POST", body: "{oops", headers: { Authorization: `Bearer ${svc.accountKey}`, "X-Service-Product": "alpha", "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
  });

  it("answers 401 without a key and 413 for a body over 20 MB", async () => {
    expect((await svc.app.request("/v1/emails", { method: "POST", body: JSON.stringify(base), headers: { "Content-Type": "application/json" } })).status).toBe(401);
    const huge = await svc.sendEmail({ ...base, text: "x".repeat(21 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe("payload_too_large");
    const bigFile = await svc.sendEmail({ ...base, attachments: [{ filename: "big.bin", content: Buffer.alloc(11 * 1024 * 1024).toString("base64") }] });
    expect(bigFile.status).toBe(400);
    expect((await bigFile.json()).error.param).toBe("attachments");
  });

  it("refuses a sender whose domain is not verified for the project (403 domain_not_verified)", async () => {
    for (const email of ["x@pending.test", "x@beta.test", "x@unknown.test"]) {
      const res = await svc.sendEmail({ ...base, from: { email } });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatchObject({ code: "domain_not_verified", param: "from" });
    }
  });

  it("sends from a template by slug or id, and refuses an unknown one (400 templateId)", async () => {
    const ok = await svc.sendEmail({ from: base.from, to: base.to, templateId: "welcome", data: { name: "Ann" } });
    expect(ok.status).toBe(202);
    const got = await (await svc.call("GET", `/v1/emails/${(await ok.json()).id}`)).json();
    expect(got.templateId).toMatch(/^tmpl_/);
    const unknown = await svc.sendEmail({ from: base.from, to: base.to, templateId: "nope" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatchObject({ param: "templateId", code: "template_not_found" });
    // Templates are per project too.
    expect((await svc.sendEmail({ from: { email: "a@beta.test" }, to: base.to, templateId: "welcome" }, { project: "beta" })).status).toBe(400);
  });

  it("enforces scopes", async () => {
    const readOnly = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: svc.alpha.id, name: "ro", scopes: ["emails:read"] })).secret;
    const sendOnly = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: svc.alpha.id, name: "so", scopes: ["emails:send"] })).secret;
    const denied = await svc.sendEmail(base, { key: readOnly, project: null });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe("insufficient_scope");
    const sent = await svc.sendEmail(base, { key: sendOnly, project: null });
    expect(sent.status).toBe(202);
    const { id } = await sent.json();
    expect((await svc.call("GET", `/v1/emails/${id}`, { key: sendOnly, project: null })).status).toBe(403);
    expect((await svc.call("GET", `/v1/emails/${id}`, { key: readOnly, project: null })).status).toBe(200);
  });

  it("requires the project for an account-wide key and keeps projects apart", async () => {
    const missing = await svc.sendEmail(base, { project: null });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe("project_required");
    expect((await svc.sendEmail({ ...base, from: { email: "a@beta.test" } }, { project: null, headers: { "X-Service-Sender": "beta" } })).status).toBe(202);
    expect((await svc.sendEmail(base, { key: svc.alphaKey, project: "beta" })).status).toBe(403);

    const { id } = await (await svc.sendEmail(base)).json();
    expect((await svc.call("GET", `/v1/emails/${id}`, { project: "beta" })).status).toBe(404);
    expect((await svc.call("GET", `/v1/emails/${id}`, { project: null })).status).toBe(200);
    expect((await svc.call("GET", `/v1/emails/${id}`, { key: svc.alphaKey, project: null })).status).toBe(200);
    const betaKey = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: svc.beta.id, name: "b" })).secret;
    expect((await svc.call("GET", `/v1/emails/${id}`, { key: betaKey, project: null })).status).toBe(404);
    expect((await svc.call("GET", "/v1/emails/msg_unknown000000")).status).toBe(404);
  });
});

describe("GET /v1/emails/{id}", () => {
  it("reads the message row once: access is checked on the row it answers with", async () => {
    const { id } = await (await svc.sendEmail(base)).json();
    // The same service over a database handle that notes which table each SELECT reads.
    const tables: Table[] = [];
    const db = new Proxy(svc.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop !== "select") return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => {
          const builder = value.apply(target, args);
          const from = builder.from.bind(builder);
          builder.from = (table: Table, ...rest: unknown[]) => (tables.push(table), from(table, ...rest));
          return builder;
        };
      },
    });
    const app = createApp({ ...svc.deps, db });
    const headers = { Authorization: `Bearer ${svc.accountKey}` };

    const got = await app.request(`/v1/emails/${id}`, { headers });
    expect(got.status).toBe(200);
    expect(messageShape.parse(await got.json()).id).toBe(id);
    expect(tables.filter((t) => t === messages)).toHaveLength(1);

    tables.length = 0;
    const other = await app.request(`/v1/emails/${id}`, { headers: { ...headers, "X-Service-Product": "beta" } });
    expect(other.status).toBe(404);
    expect(tables.filter((t) => t === messages)).toHaveLength(1);
  });
});

describe("POST /v1/emails/batch", () => {
  it("answers 207 with one entry per item, errors naming the item's field", async () => {
    const res = await svc.call("POST", "/v1/emails/batch", {
      body: { emails: [base, { ...base, to: [{ email: "bad" }] }, { ...base, from: { email: "a@unknown.test" } }, { ...base, templateId: "nope" }, base] },
    });
    expect(res.status).toBe(207);
    const { data } = await res.json();
    expect(data).toHaveLength(5);
    expect(data[0]).toMatchObject({ id: expect.stringMatching(/^msg_/), status: "queued" });
    expect(data[1].error).toMatchObject({ code: "validation_error", param: "emails.1.to.0.email" });
    expect(data[1].error.message).toMatch(/^emails\.1\.to\.0\.email: /);
    expect(data[2].error).toMatchObject({ code: "domain_not_verified", param: "emails.2.from" });
    expect(data[3].error).toMatchObject({ code: "template_not_found", param: "emails.3.templateId" });
    expect(data[4].status).toBe("queued");
    expect((await svc.call("GET", `/v1/emails/${data[4].id}`)).status).toBe(200);
  });

  it("refuses 101 items and an empty batch (400 emails)", async () => {
    const many = await svc.call("POST", "/v1/emails/batch", { body: { emails: Array.from({ length: 101 }, () => base) } });
    expect(many.status).toBe(400);
    expect((await many.json()).error.param).toBe("emails");
    expect((await svc.call("POST", "/v1/emails/batch", { body: { emails: [] } })).status).toBe(400);
    expect((await (await svc.call("POST", "/v1/emails/batch", { body: {} })).json()).error.param).toBe("emails");
  });

  it("accepts 100 items and replays the batch for its Idempotency-Key", async () => {
    const before = await countMessages();
    const emails = Array.from({ length: 100 }, (_, i) => ({ ...base, subject: `n${i}` }));
    const first = await svc.call("POST", "/v1/emails/batch", { body: { emails }, headers: { "Idempotency-Key": "b-1" } });
    expect(first.status).toBe(207);
    const again = await svc.call("POST", "/v1/emails/batch", { body: { emails }, headers: { "Idempotency-Key": "b-1" } });
    expect(again.status).toBe(207);
    expect(await again.json()).toEqual(await first.json());
    expect(await countMessages()).toBe(before + 100);
  });

  it("checks the scope and the project", async () => {
    const readOnly = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "ro", scopes: ["emails:read"] })).secret;
    expect((await svc.call("POST", "/v1/emails/batch", { body: { emails: [base] }, key: readOnly })).status).toBe(403);
    expect((await svc.call("POST", "/v1/emails/batch", { body: { emails: [base] }, project: null })).status).toBe(400);
  });
});

describe("POST /v1/emails/{id}/reply", () => {
  it("replies to inbound mail from the address it was sent to, in the same thread", async () => {
    const inbound = await (await svc.call("POST", "/v1/inbound/simulate", {
      body: { from: "customer@example.com", to: "support@alpha.test", subject: "Help please", text: "?" },
    })).json();
    const res = await svc.call("POST", `/v1/emails/${inbound.id}/reply`, { body: { text: "On it" }, project: null });
    expect(res.status).toBe(202);
    const reply = await (await svc.call("GET", `/v1/emails/${(await res.json()).id}`)).json();
    expect(reply).toMatchObject({ from: "support@alpha.test", to: ["customer@example.com"], subject: "Re: Help please", threadId: inbound.threadId, status: "queued" });
    const [row] = await svc.db.select().from(messages).where(eq(messages.id, inbound.id));
    expect(reply.inReplyTo).toBe(row.rfcMessageId);

    // A reply to the reply: to the original recipients, no stacked "Re:", References grow.
    const second = await (await svc.call("POST", `/v1/emails/${reply.id}/reply`, { body: { html: "<p>More</p>" } })).json();
    const [secondRow] = await svc.db.select().from(messages).where(eq(messages.id, second.id));
    expect(secondRow).toMatchObject({ subject: "Re: Help please", threadId: inbound.threadId, from: "support@alpha.test" });
    expect(secondRow.to).toEqual([{ email: "customer@example.com" }]);
    expect(secondRow.references).toHaveLength(2);
  });

  it("is idempotent, and refuses bad input, unknown ids, other projects and unverified senders", async () => {
    const { id } = await (await svc.sendEmail(base)).json();
    const k = { headers: { "Idempotency-Key": "r-1" } };
    const a = await (await svc.call("POST", `/v1/emails/${id}/reply`, { body: { text: "x" }, ...k })).json();
    const b = await (await svc.call("POST", `/v1/emails/${id}/reply`, { body: { text: "x" }, ...k })).json();
    expect(a.id).toBe(b.id);
    expect((await svc.call("POST", `/v1/emails/${id}/reply`, { body: { text: "y" }, ...k })).status).toBe(409);

    const empty = await svc.call("POST", `/v1/emails/${id}/reply`, { body: {} });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.param).toBe("text");
    expect((await svc.call("POST", "/v1/emails/msg_nope0000000/reply", { body: { text: "x" } })).status).toBe(404);
    expect((await svc.call("POST", `/v1/emails/${id}/reply`, { body: { text: "x" }, project: "beta" })).status).toBe(404);
    const spoof = await svc.call("POST", `/v1/emails/${id}/reply`, { body: { text: "x", from: { email: "a@beta.test" } } });
    expect(spoof.status).toBe(403);
    expect((await spoof.json()).error.param).toBe("from");

    const toUnverified = await (await svc.call("POST", "/v1/inbound/simulate", {
      body: { from: "c@example.com", to: "desk@elsewhere.test", subject: "Q" },
    })).json();
    const refused = await svc.call("POST", `/v1/emails/${toUnverified.id}/reply`, { body: { text: "x" } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("domain_not_verified");
  });

  it("prefixes Re: once", () => {
    expect(replySubject("Hello")).toBe("Re: Hello");
    expect(replySubject("RE: Hello")).toBe("RE: Hello");
    expect(replySubject(null)).toBe("Re:");
  });
});
