import { describe, expect, it } from "vitest";
import { normalizeEvent } from "@/lib/messages/event-element";
import { eventDetails, eventLabel, eventReason, humanizeKey, rawWordShown } from "./event-details";

const view = (raw: unknown) => {
  const e = normalizeEvent(raw);
  return { type: e.type, rawType: e.rawType, createdAt: e.createdAt, data: e.data };
};

describe("eventLabel", () => {
  it("uses the dashboard's label for known types and the service's word otherwise", () => {
    expect(eventLabel(view({ type: "delivery" }))).toBe("Delivered");
    expect(eventLabel(view({ event: "email.delivered" }))).toBe("Delivered");
    expect(eventLabel(view({ type: "list_unsubscribe_requested" }))).toBe("List unsubscribe requested");
    expect(eventLabel(view({ type: "email.teleported" }))).toBe("Teleported");
  });

  it("shows the service's own word beside the label only when it says more than a change of case", () => {
    expect(rawWordShown(view({ type: "Open" }))).toBeNull();
    expect(rawWordShown(view({ type: "Delivered" }))).toBeNull();
    expect(rawWordShown(view({ event: "email.sent" }))).toBe("email.sent");
    expect(rawWordShown(view({ kind: "HardBounce" }))).toBe("HardBounce");
  });
});

describe("eventDetails", () => {
  it("shows every field: known ones first with friendly labels, the others humanised, nested ones spelled out", () => {
    const rows = eventDetails(view({
      name: "HardBounce",
      occurred_at: "2026-11-24T10:00:05Z",
      mta: "mx.example.com",
      details: { bounce_reason: "Mailbox does not exist", smtp: { code: 550, enhanced: "5.1.1" }, tags: ["a", "b"], hops: [{ host: "a" }, { host: "b" }] },
    }));
    expect(rows).toEqual([
      { label: "Reason", value: "Mailbox does not exist", href: null },
      { label: "Smtp code", value: "550", href: null },
      { label: "Smtp enhanced", value: "5.1.1", href: null },
      { label: "Tags", value: "a, b", href: null },
      { label: "Hops", value: "host: a; host: b", href: null },
      { label: "Mta", value: "mx.example.com", href: null },
    ]);
  });

  it("links only http(s) values", () => {
    const rows = eventDetails(view({ type: "click", data: { link: "https://acme.test/a?b=1", other: "javascript:alert(1)", ftp: "ftp://x.test/f" } }));
    expect(rows.find((r) => r.label === "Link")?.href).toBe("https://acme.test/a?b=1");
    expect(rows.filter((r) => r.href !== null)).toHaveLength(1);
  });

  it("leaves out empty values", () => {
    expect(eventDetails(view({ type: "sent", data: { reason: "", note: null } }))).toEqual([]);
  });
});

describe("eventReason", () => {
  it("finds the reason whatever the key, nested one level too", () => {
    expect(eventReason(view({ type: "bounce", data: { diagnostic: "550 no such user" } }))).toBe("550 no such user");
    expect(eventReason(view({ type: "bounce", bounce_reason: "Mailbox full" }))).toBe("Mailbox full");
    expect(eventReason(view({ type: "bounce", data: { bounce: { smtpResponse: "552 quota" } } }))).toBe("552 quota");
    expect(eventReason(view({ type: "bounce", data: { statusText: "x", rejection_explanation_message: "Blocked by policy" } }))).toBe("Blocked by policy");
    expect(eventReason(view({ type: "bounce" }))).toBeNull();
  });
});

describe("humanizeKey", () => {
  it("makes names readable", () => {
    expect(humanizeKey("smtpCode")).toBe("Smtp code");
    expect(humanizeKey("bounce-sub_type")).toBe("Bounce sub type");
  });
});
