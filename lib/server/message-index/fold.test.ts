import { describe, expect, it } from "vitest";
import { foldAll, foldStatus, isKnownEventType } from "./fold";

describe("foldStatus", () => {
  it("moves forward along queued < sending < sent < delivered", () => {
    expect(foldAll("queued", ["accepted", "sending", "sent", "delivery"])).toBe("delivered");
    expect(foldStatus("queued", "sent")).toBe("sent");
  });

  it("never moves back when events arrive out of order", () => {
    expect(foldAll("queued", ["delivery", "sent", "sending", "queued"])).toBe("delivered");
    expect(foldAll("queued", ["sent", "sending"])).toBe("sent");
  });

  it("keeps final statuses whatever arrives late", () => {
    for (const [start, late] of [["bounced", "sent"], ["bounced", "delivery"], ["rejected", "sent"], ["failed", "queued"], ["complained", "delivery"], ["delivered", "bounce"]]) {
      expect(foldStatus(start, late)).toBe(start);
    }
  });

  it("moves to a failure from any pending state", () => {
    expect(foldStatus("queued", "bounce")).toBe("bounced");
    expect(foldStatus("sent", "rejected")).toBe("rejected");
    expect(foldStatus("sending", "rendering_failure")).toBe("failed");
  });

  it("a complaint after delivery wins", () => {
    expect(foldAll("queued", ["sent", "delivery", "complaint"])).toBe("complained");
    expect(foldAll("queued", ["complaint", "delivery"])).toBe("complained");
  });

  it("opens and clicks imply delivery", () => {
    expect(foldStatus("sent", "open")).toBe("delivered");
    expect(foldStatus("queued", "click")).toBe("delivered");
  });

  it("delivery_delayed and unknown types keep the status", () => {
    expect(foldStatus("sent", "delivery_delayed")).toBe("sent");
    expect(foldStatus("sent", "teleported")).toBe("sent");
    expect(isKnownEventType("teleported")).toBe(false);
    expect(isKnownEventType("delivery_delayed")).toBe(true);
  });

  it("inbound mail is received", () => {
    expect(foldStatus("queued", "inbound_received")).toBe("received");
  });

  it("reads a service's own event words through the vocabulary", () => {
    expect(foldAll("queued", ["email.sent", "email.delivered"])).toBe("delivered");
    expect(foldStatus("sent", "Bounced")).toBe("bounced");
    expect(foldStatus("queued", "DeliveryEvent")).toBe("delivered");
    expect(foldStatus("sent", "spam_report")).toBe("complained");
    expect(foldStatus("delivered", "email.complained")).toBe("complained");
  });

  it("takes what is final from the vocabulary's one list, whatever its spelling", () => {
    // "Canceled" is final in the vocabulary: nothing moves it.
    expect(foldStatus("canceled", "delivery")).toBe("canceled");
    expect(foldStatus("Delivered", "sent")).toBe("Delivered");
    // A status word the dashboard does not know is not final: events still move it.
    expect(foldStatus("archived", "delivery")).toBe("delivered");
  });
});
