import { describe, expect, it } from "vitest";
import { normalizeEvent, toIsoTime } from "./event-element";
import { canonicalEventType, canonicalStatus, isFinalStatus, isSettled, SETTLE_QUIET_MS, wordKey } from "./vocabulary";

describe("canonicalEventType", () => {
  it("reads the spellings services use for the interface's event types", () => {
    const cases: [string, string][] = [
      ["delivery", "delivery"], ["delivered", "delivery"], ["email.delivered", "delivery"], ["Delivered", "delivery"],
      ["DeliveryEvent", "delivery"], ["message.bounced", "bounce"], ["HardBounce", "bounce"], ["SpamComplaint", "complaint"],
      ["spamreport", "complaint"], ["email.opened", "open"], ["Click", "click"], ["deferred", "delivery_delayed"],
      ["DeliveryDelay", "delivery_delayed"], ["dropped", "rejected"], ["RenderingFailure", "rendering_failure"],
      ["inbound.received", "inbound_received"], ["email.sent", "sent"], ["processed", "accepted"],
    ];
    for (const [word, type] of cases) expect(canonicalEventType(word), word).toBe(type);
  });

  it("keeps an unknown word, cleaned, instead of guessing", () => {
    expect(canonicalEventType("email.teleported")).toBe("teleported");
    expect(canonicalEventType("Archived By Robot")).toBe("archived_by_robot");
    expect(canonicalEventType("")).toBe("unknown");
  });
});

describe("canonicalStatus", () => {
  it("maps status words onto the dashboard's statuses", () => {
    expect(canonicalStatus("DELIVERED")).toBe("delivered");
    expect(canonicalStatus("delivery")).toBe("delivered");
    expect(canonicalStatus("hard_bounce")).toBe("bounced");
    expect(canonicalStatus("email.bounced")).toBe("bounced");
    expect(canonicalStatus("cancelled")).toBe("canceled");
    expect(canonicalStatus("accepted")).toBe("queued");
  });

  it("keeps unknown words and never calls them final", () => {
    expect(canonicalStatus("Archived")).toBe("archived");
    expect(isFinalStatus("archived")).toBe(false);
    expect(isFinalStatus("Bounced")).toBe(true);
  });

  it("word keys are lower snake case", () => {
    expect(wordKey(" Delivery-Delayed ")).toBe("delivery_delayed");
    expect(wordKey("spamComplaint")).toBe("spam_complaint");
  });
});

describe("isSettled", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");
  it("is true for known final statuses at once", () => {
    expect(isSettled("bounced", now, now)).toBe(true);
  });
  it("is true for an unknown word only after a quiet period", () => {
    expect(isSettled("archived", now - 1000, now)).toBe(false);
    expect(isSettled("archived", now - SETTLE_QUIET_MS, now)).toBe(true);
    expect(isSettled("archived", null, now)).toBe(false);
  });
});

describe("normalizeEvent", () => {
  it("reads this project's own service's shape", () => {
    const e = normalizeEvent({ type: "bounce", createdAt: "2026-11-24T10:00:00.000Z", data: { diagnostic: "550 5.1.1 no such user" } });
    expect(e).toEqual({ type: "bounce", rawType: null, createdAt: "2026-11-24T10:00:00.000Z", data: { diagnostic: "550 5.1.1 no such user" } });
  });

  it("reads other shapes: the type, the time and every other field as a detail", () => {
    const e = normalizeEvent({ event: "email.bounced", timestamp: 1795000000, reason: "Mailbox does not exist", smtpCode: 550 });
    expect(e.type).toBe("bounce");
    expect(e.rawType).toBe("email.bounced");
    expect(e.createdAt).toBe(new Date(1795000000 * 1000).toISOString());
    expect(e.data).toEqual({ reason: "Mailbox does not exist", smtpCode: 550 });
  });

  it("matches field names without case or separators, and flattens nested details", () => {
    const e = normalizeEvent({ Type: "Delivered", ReceivedAt: "2026-11-24T10:00:00Z", Details: { DeliveryMessage: "250 OK" } });
    expect(e.type).toBe("delivery");
    expect(e.createdAt).toBe("2026-11-24T10:00:00.000Z");
    expect(e.data).toEqual({ DeliveryMessage: "250 OK" });
  });

  it("finds a time in any date-time field when no usual name carries one", () => {
    const e = normalizeEvent({ kind: "open", seen_on: "2026-11-24 09:30:00Z", ip: "192.0.2.1" });
    expect(e.createdAt).toBe("2026-11-24T09:30:00.000Z");
    expect(e.data).toEqual({ ip: "192.0.2.1" });
  });

  it("survives elements that are not objects", () => {
    expect(normalizeEvent("delivered").type).toBe("delivery");
    expect(normalizeEvent(null)).toEqual({ type: "unknown", rawType: null, data: {} });
    expect(normalizeEvent({ note: "no type here" }).type).toBe("unknown");
  });

  it("reads epoch milliseconds and RFC 2822 text", () => {
    expect(toIsoTime(1795000000123)).toBe(new Date(1795000000123).toISOString());
    expect(toIsoTime("Tue, 24 Nov 2026 10:00:00 +0000")).toBe("2026-11-24T10:00:00.000Z");
    expect(toIsoTime("not a date")).toBeUndefined();
    expect(toIsoTime(42)).toBeUndefined();
  });
});

describe("wordKey on long words", () => {
  // /^_+|_+$/g retried from every underscore of a run: 100,000 of them took about 20 s.
  it("cleans 100,000 underscores between two letters at once", () => {
    const started = performance.now();
    expect(wordKey(`a${"_".repeat(100_000)}b`)).toBe(`a${"_".repeat(100_000)}b`);
    expect(wordKey(`__a__`)).toBe("a");
    expect(performance.now() - started).toBeLessThan(500);
  });
});
