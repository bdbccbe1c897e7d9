import { describe, expect, it } from "vitest";
import { findMessageId } from "@/lib/server/service/readers/message-id";
import { cleanJson, readEvent, TOO_DEEP } from "./payload";

describe("findMessageId: the documented order", () => {
  it("finds the id under each documented name, in data first", () => {
    expect(findMessageId({ data: { messageId: "m1" } })).toEqual({ id: "m1", at: "data.messageid" });
    expect(findMessageId({ data: { message_id: "m2" } })?.id).toBe("m2");
    expect(findMessageId({ data: { emailId: "m3" } })?.id).toBe("m3");
    expect(findMessageId({ data: { email_id: "m4" } })?.id).toBe("m4");
    expect(findMessageId({ data: { email: { id: "m5" } } })).toEqual({ id: "m5", at: "data.email.id" });
    expect(findMessageId({ data: { message: { id: "m6" } } })).toEqual({ id: "m6", at: "data.message.id" });
    expect(findMessageId({ MessageID: "m7", RecordType: "Delivery" })?.id).toBe("m7");
    expect(findMessageId({ payload: { message_id: "m8" } })).toEqual({ id: "m8", at: "payload.messageid" });
    expect(findMessageId({ object: { email_id: "m9" } })).toEqual({ id: "m9", at: "object.emailid" });
    expect(findMessageId({ data: { object: { id: "m10", to: ["a@x.test"] } } }, "delivered")).toEqual({ id: "m10", at: "data.object.id" });
  });

  it("prefers an explicit message id over a container's own id, and data over the top level", () => {
    expect(findMessageId({ data: { id: "evt_1", messageId: "m1" } }, "delivery")?.id).toBe("m1");
    expect(findMessageId({ messageId: "top", data: { messageId: "inner" } })?.id).toBe("inner");
    expect(findMessageId({ data: { email: { id: "nested" } }, email_id: "top" })?.id).toBe("nested");
  });

  it("takes a container's `id` only when it is about one message", () => {
    expect(findMessageId({ data: { id: "m1" } }, "email.delivered")?.id).toBe("m1");
    expect(findMessageId({ data: { id: "m2", to: ["ada@example.com"] } })?.id).toBe("m2");
    // A domain event's data.id is a domain, not a message.
    expect(findMessageId({ data: { id: "dom_1", name: "acme.test" } }, "domain.verified")).toBeNull();
  });

  it("never takes a top-level id that sits beside a container (it names the event or delivery)", () => {
    expect(findMessageId({ id: "evt_1", type: "delivered", data: { status: "ok" } }, "delivered")).toBeNull();
    expect(findMessageId({ id: "m1", type: "delivered", to: ["ada@example.com"] }, "delivered")).toEqual({ id: "m1", at: "id" });
  });

  it("accepts numbers and refuses empty or absurd values", () => {
    expect(findMessageId({ data: { messageId: 12345 } })?.id).toBe("12345");
    expect(findMessageId({ data: { messageId: "  " } })).toBeNull();
    expect(findMessageId({ data: { messageId: "x".repeat(300) } })).toBeNull();
    expect(findMessageId("m1")).toBeNull();
    expect(findMessageId(null)).toBeNull();
  });
});

describe("readEvent", () => {
  it("reads the local service's shape", () => {
    const r = readEvent({
      type: "bounce",
      createdAt: "2026-03-01T10:00:00.000Z",
      data: { messageId: "msg_1", project: "demo", direction: "outbound", from: "Shop <shop@acme.test>", to: ["ada@example.com"], subject: "Hi", status: "bounced", eventData: { reason: "mailbox full" } },
    });
    expect(r).toEqual({
      ok: true,
      event: {
        messageId: "msg_1",
        type: "bounce",
        occurredAt: new Date("2026-03-01T10:00:00.000Z"),
        direction: "outbound",
        from: "Shop <shop@acme.test>",
        to: ["ada@example.com"],
        subject: "Hi",
        text: null,
        html: null,
        details: { reason: "mailbox full" },
      },
    });
  });

  it("reads a nested foreign shape: dotted type, snake_case time, the reason kept as a detail", () => {
    const r = readEvent({ type: "email.bounced", created_at: "2026-03-01T10:00:00Z", data: { email_id: "em_9", to: "ada@example.com", bounce: { message: "550 no such user" } } });
    expect(r.ok && r.event).toMatchObject({ messageId: "em_9", type: "bounce", to: ["ada@example.com"], details: { bounce: { message: "550 no such user" } } });
    expect(r.ok && r.event.occurredAt?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
  });

  it("reads a flat shape with epoch seconds and address objects", () => {
    const r = readEvent({ event: "Delivered", message_id: "42", timestamp: 1772359200, recipient: { email: "ada@example.com", name: "Ada" }, smtp: "250 ok" });
    expect(r.ok && r.event).toMatchObject({ messageId: "42", type: "delivery", to: ["Ada <ada@example.com>"], details: { smtp: "250 ok" } });
    expect(r.ok && r.event.occurredAt?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
  });

  it("reads a record-type shape, and inbound mail with its body", () => {
    expect(readEvent({ RecordType: "Delivery", MessageID: "pm-1" })).toMatchObject({ ok: true, event: { messageId: "pm-1", type: "delivery" } });
    const inbound = readEvent({ type: "inbound.received", data: { id: "in_1", from: "ada@example.com", to: ["support@acme.test"], subject: "Help", text: "Hello", html: "<p>Hello</p>" } });
    expect(inbound).toMatchObject({ ok: true, event: { messageId: "in_1", type: "inbound_received", direction: "inbound", text: "Hello", html: "<p>Hello</p>" } });
  });

  it("keeps an unknown event word as it came, without a time when none is given", () => {
    const r = readEvent({ kind: "Teleported", data: { messageId: "m1" } });
    expect(r).toMatchObject({ ok: true, event: { type: "teleported", occurredAt: null } });
  });

  it("says why a payload cannot be used", () => {
    expect(readEvent({ type: "delivered", data: { status: "ok" } })).toEqual({ ok: false, reason: expect.stringMatching(/^no message id in the payload .*its fields: type, data/) });
    expect(readEvent("delivered")).toEqual({ ok: false, reason: expect.stringMatching(/a JSON string, not an object/) });
    expect(readEvent(null)).toEqual({ ok: false, reason: expect.stringMatching(/JSON null/) });
  });
});

describe("cleanJson: a verified delivery made storable", () => {
  it("replaces NUL characters and lone surrogates, in values and keys, with U+FFFD", () => {
    const parsed = JSON.parse('{"a\\u0000b":["x\\u0000y","\\ud800","ok \\ud83d\\ude00"],"n":1,"t":true,"z":null}');
    expect(cleanJson(parsed)).toEqual({ "a\ufffdb": ["x\ufffdy", "\ufffd", "ok \u{1f600}"], n: 1, t: true, z: null });
  });

  it("keeps a `__proto__` key a field, and cuts nesting at 32 levels", () => {
    const cleaned = cleanJson(JSON.parse('{"__proto__":{"polluted":true},"a":1}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(Object.keys(cleaned)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    let deep: unknown = "bottom";
    for (let i = 0; i < 100; i++) deep = [deep];
    let at = cleanJson(deep);
    let levels = 0;
    while (Array.isArray(at)) {
      at = at[0];
      levels++;
    }
    expect([levels, at]).toEqual([32, TOO_DEEP]);
  });
});

describe("readEvent: what the index can hold", () => {
  it("leaves out addresses too long for the index, keeps at most 50 recipients, and takes no overlong event word", () => {
    const long = `${"a".repeat(600)}@example.com`;
    const to = [long, ...Array.from({ length: 60 }, (_, i) => `r${i}@example.com`)];
    const read = readEvent({ recordType: "x".repeat(101), MessageID: "m1", From: long, To: to });
    expect(read.ok && read.event).toMatchObject({ from: null, type: "unknown" });
    expect(read.ok && read.event.to).toEqual(to.slice(1, 51));
  });
});
