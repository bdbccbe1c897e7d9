import { describe, expect, it, vi } from "vitest";
import { message as wireMessage } from "@/lib/schemas/emails";
import { domain as wireDomain } from "@/lib/schemas/domains";
import {
  attachmentsReader,
  batchAnswerReader,
  contactReader,
  domainReader,
  messageReader,
  pageReader,
  previewReader,
  suppressionReader,
  templateReader,
  webhookReader,
} from "./index";

describe("messageReader", () => {
  const ours = {
    id: "msg_1",
    from: "Acme <hi@acme.test>",
    to: ["ann@example.com"],
    subject: "Hello",
    status: "delivered",
    direction: "outbound",
    createdAt: "2026-11-24T10:00:00.000Z",
    events: [
      { type: "queued", createdAt: "2026-11-24T10:00:00.000Z", data: {} },
      { type: "delivery", createdAt: "2026-11-24T10:00:02.000Z", data: { response: "250 OK" } },
    ],
    threadId: "thr_1",
  };

  it("reads the bundled service's answer as the wire schema does", () => {
    const read = messageReader.parse(ours);
    const wire = wireMessage.parse(ours);
    expect(read).toMatchObject({ ...wire, html: null, text: null, templateId: null, inReplyTo: null, scheduledAt: null });
    expect(read.events).toEqual(wire.events);
  });

  it("reads another service's choices: numeric id, address objects, status words, events of any shape, no createdAt", () => {
    const read = messageReader.parse({
      id: 981,
      from: { email: "hi@acme.test", name: "Acme, Inc." },
      to: [{ email: "ann@example.com", name: "Ann" }, "bob@example.com"],
      subject: null,
      status: "BOUNCED",
      direction: "OUTBOUND",
      events: [
        { event: "email.sent", timestamp: 1795000000 },
        { name: "HardBounce", occurred_at: "2026-11-24T10:00:05Z", details: { smtp: { code: 550 }, bounce_reason: "Mailbox does not exist" } },
      ],
      provider: { region: "eu" },
    });
    expect(read.id).toBe("981");
    expect(read.from).toBe('"Acme, Inc." <hi@acme.test>');
    expect(read.to).toEqual(["ann@example.com", "bob@example.com"]);
    expect(read.status).toBe("bounced");
    expect(read.direction).toBe("outbound");
    // No createdAt: the first event's time.
    expect(read.createdAt).toBe(new Date(1795000000 * 1000).toISOString());
    expect(read.events[1]).toEqual({ type: "bounce", rawType: "HardBounce", createdAt: "2026-11-24T10:00:05.000Z", data: { smtp: { code: 550 }, bounce_reason: "Mailbox does not exist" } });
    expect(read).not.toHaveProperty("provider");
  });

  it("keeps an unknown status word as the service wrote it, and reads missing optional fields as empty", () => {
    const read = messageReader.parse({ id: "m", from: "a@b.io", to: "c@d.io", status: "Archived", direction: "inbound", events: null, tags: { plan: "pro" }, headers: [{ name: "X-A", value: 1 }] });
    expect(read.status).toBe("Archived");
    expect(read.to).toEqual(["c@d.io"]);
    expect(read.subject).toBeNull();
    expect(read.events).toEqual([]);
    expect(read.createdAt).toBe("");
    expect(read.tags).toEqual([{ name: "plan", value: "pro" }]);
    expect(read.headers).toEqual({ "X-A": "1" });
  });

  it("refuses an answer without an id", () => {
    expect(messageReader.safeParse({ from: "a@b.io", to: [] }).success).toBe(false);
  });

  it("refuses what is not a message, naming the id when that is what is missing", () => {
    for (const answer of [null, "msg_1", [{ id: "msg_1" }], { id: "  " }, { id: Number.NaN }, { id: true }]) {
      const parsed = messageReader.safeParse(answer);
      expect(parsed.success, JSON.stringify(answer)).toBe(false);
    }
    expect(messageReader.safeParse({ id: " " }).error?.issues[0]?.path).toEqual(["id"]);
  });

  it("reads linked ids as the id is read, and anything else there as none", () => {
    const read = messageReader.parse({ id: " msg_2 ", inReplyTo: 17, threadId: "  thr_9 ", templateId: "" });
    expect(read).toMatchObject({ id: "msg_2", inReplyTo: "17", threadId: "thr_9", templateId: null });
    const odd = messageReader.parse({ id: "m", inReplyTo: { id: "x" }, threadId: Infinity, templateId: false });
    expect(odd).toMatchObject({ inReplyTo: null, threadId: null, templateId: null });
  });

  it("keeps cc, bcc and replyTo absent when the service leaves them out, and empty when it sends null", () => {
    const absent = messageReader.parse({ id: "m" });
    expect(absent).not.toHaveProperty("cc");
    expect(absent).not.toHaveProperty("bcc");
    expect(absent).not.toHaveProperty("replyTo");
    expect(absent.to).toEqual([]);
    const empty = messageReader.parse({ id: "m", cc: null, bcc: "x@y.io", replyTo: [{ address: "r@y.io" }] });
    expect(empty).toMatchObject({ cc: [], bcc: ["x@y.io"], replyTo: ["r@y.io"] });
  });
});

describe("answers to sends", () => {
  it("batch entries of any layout", () => {
    const read = batchAnswerReader.parse({
      data: [{ id: 1 }, { error: { message: "bad address", code: "invalid", param: "to" } }, { success: false, errors: [{ field: "subject", detail: "required" }] }, { error: "nope" }, null],
    });
    expect(read.data).toEqual([
      { id: "1" },
      { error: { message: "bad address", code: "invalid", param: "to" } },
      { error: { message: "required", code: "refused", param: "subject" } },
      { error: { message: "nope", code: "refused", param: null } },
      { error: { message: "The service gave no result for this email.", code: "unknown" } },
    ]);
  });

  it("attachments: numeric sizes as text, a bare array, items without a url left out", () => {
    const log = vi.spyOn(console, "warn").mockImplementation(() => {});
    const read = attachmentsReader.parse([{ id: 3, name: "a.pdf", size: "120", url: "/v1/a/3" }, { id: 4, filename: "b.pdf" }]);
    expect(read.data).toEqual([{ id: "3", filename: "a.pdf", contentType: "application/octet-stream", size: 120, url: "/v1/a/3" }]);
    log.mockRestore();
  });
});

describe("pageReader", () => {
  const page = pageReader(suppressionReader, "suppression");
  it("reads a missing nextCursor as the last page and a numeric one as text", () => {
    expect(page.parse({ data: [] })).toEqual({ data: [], nextCursor: null });
    expect(page.parse({ data: [], nextCursor: 40 })).toEqual({ data: [], nextCursor: "40" });
    expect(page.parse({ data: [], nextCursor: "" })).toEqual({ data: [], nextCursor: null });
    expect(page.parse([{ email: "a@b.io" }]).data).toHaveLength(1);
  });

  it("leaves out an item it cannot read instead of failing the page", () => {
    const log = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(page.parse({ data: [{ reason: "bounce" }, { email: "a@b.io", reason: "Hard bounce" }] }).data).toEqual([{ email: "a@b.io", reason: "Hard bounce", createdAt: "" }]);
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });

  it("refuses what is not a page", () => {
    expect(page.safeParse({ items: [] }).success).toBe(false);
  });
});

describe("domainReader", () => {
  const record = (verified: unknown, extra: object = {}) => ({ type: "txt", name: "x._domainkey", value: "v=DKIM1", purpose: "dkim", verified, ...extra });

  it("reads the bundled service's answer as the wire schema does", () => {
    const ours = { id: "dom_1", domain: "acme.test", status: "pending", records: [record(false)], createdAt: "2026-11-24T10:00:00.000Z" };
    expect(domainReader.parse(ours)).toEqual({ ...wireDomain.parse(ours), records: [{ ...record(false), type: "TXT", priority: null }] });
  });

  it("derives the status from the records when list items carry none", () => {
    expect(domainReader.parse({ id: 5, domain: "a.test", records: [record(true), record(true)] }).status).toBe("verified");
    expect(domainReader.parse({ id: 5, domain: "a.test", records: [record(true), record(undefined)] }).status).toBe("pending");
    expect(domainReader.parse({ id: 5, domain: "a.test" }).status).toBe("pending");
  });

  it("never says pending when every record is verified, and reads a record's status word", () => {
    const d = domainReader.parse({ id: "d", domain: "a.test", status: "PENDING", records: [record(undefined, { status: "Verified" }), record("true")] });
    expect(d.status).toBe("verified");
    expect(d.records.map((r) => r.verified)).toEqual([true, true]);
  });

  it("keeps the service's failed, and maps its other words", () => {
    expect(domainReader.parse({ id: "d", domain: "a.test", status: "failed", records: [record(true)] }).status).toBe("failed");
    expect(domainReader.parse({ id: "d", domain: "a.test", status: "not_started", records: [] }).status).toBe("pending");
    expect(domainReader.parse({ id: "d", domain: "a.test", status: "Active", records: [] }).status).toBe("verified");
  });
});

describe("templateReader", () => {
  it("keeps the variables the service lists", () => {
    const t = templateReader.parse({ id: "t", name: "W", subject: "Hi {{name}}", html: null, text: null, createdAt: "2026-01-01T00:00:00Z", variables: ["name"] });
    expect(t.variables).toEqual(["name"]);
  });

  it("detects them from subject, html and text when it lists none", () => {
    const t = templateReader.parse({
      id: 17,
      name: "Welcome",
      subject: "Welcome to {{company}}, {{first_name}}!",
      html: "<p>{{{intro}}}</p>{{#items}}<li>{{name}}</li>{{/items}}{{! a comment }}{{> footer}}",
      text: "{{& user.email}} {{^vip}}Upgrade{{/vip}}",
    });
    expect(t).toMatchObject({ id: "17", slug: null, createdAt: "" });
    expect(t.variables).toEqual(["company", "first_name", "intro", "items", "items[].name", "user.email", "vip"]);
  });
});

describe("previewReader", () => {
  const request = { subject: "Hi {{name}}", text: "{{greeting}} {{name}}", data: { name: "Ann" } };
  const read = (answer: unknown) => previewReader(request).parse(answer);

  it("reads the bundled service's answer", () => {
    expect(read({ subject: "Hi Ann", html: null, text: "Hello Ann", variables: ["name", "greeting"], missing: [] })).toEqual({
      subject: "Hi Ann", html: null, text: "Hello Ann", variables: ["name", "greeting"], missing: [],
    });
  });

  it("reads an empty draft's answer, whose parts are all null", () => {
    const empty = previewReader({}).parse({ subject: null, html: null, text: null, variables: [], missing: [] });
    expect(empty).toEqual({ subject: null, html: null, text: null, variables: [], missing: [] });
    expect(previewReader({}).parse({ data: { subject: null, html: null } })).toMatchObject({ subject: null, html: null, text: null });
  });

  it("finds the rendered parts at the top level or nested, with html under body or content", () => {
    const expected = { subject: "Hi Ann", html: "<p>x</p>", text: " Ann", variables: ["name", "greeting"], missing: ["greeting"] };
    expect(read({ rendered: { subject: "Hi Ann", html: "<p>x</p>", text: " Ann" } })).toEqual(expected);
    expect(read({ data: { result: { subject: "Hi Ann", body: { html: "<p>x</p>", text: " Ann" } } } })).toEqual(expected);
    expect(read({ preview: { subject: "Hi Ann", content: "<p>x</p>", text: " Ann" } })).toEqual(expected);
    expect(read({ subject: "Hi Ann", htmlBody: "<p>x</p>", textBody: " Ann" })).toEqual(expected);
  });

  it("refuses an answer that carries no rendered part", () => {
    expect(previewReader(request).safeParse({ ok: true }).success).toBe(false);
  });
});

describe("other resources", () => {
  it("contacts, suppressions and webhooks with missing optional fields and extra ones", () => {
    expect(contactReader.parse({ id: 1, email: "a@b.io", unsubscribedAt: "2026-01-01T00:00:00Z", extra: 1 })).toEqual({
      id: "1", email: "a@b.io", firstName: null, lastName: null, subscribed: false, unsubscribedAt: "2026-01-01T00:00:00Z", metadata: {}, createdAt: "",
    });
    expect(suppressionReader.parse({ email: "a@b.io" })).toEqual({ email: "a@b.io", reason: "unknown", createdAt: "" });
    expect(webhookReader.parse({ id: 9, url: "https://x.test/h", eventTypes: ["delivery", 3] })).toEqual({ id: "9", url: "https://x.test/h", enabled: true, eventTypes: ["delivery"], createdAt: "" });
  });
});
