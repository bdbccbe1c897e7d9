import { describe, expect, it } from "vitest";
import { STATUS_STYLES, statusStyle } from "@/components/common/status-styles";

describe("statusStyle", () => {
  it("knows every state the screens show", () => {
    for (const s of ["queued", "sending", "sent", "delivered", "bounced", "complained", "rejected", "failed", "received", "pending", "verified"]) {
      expect(statusStyle(s).known, s).toBe(true);
    }
  });

  it("gives each message outcome its own icon", () => {
    const outcomes = ["queued", "sending", "sent", "delivered", "bounced", "complained", "rejected", "received"];
    const icons = new Set(outcomes.map((s) => STATUS_STYLES[s].icon));
    expect(icons.size).toBe(outcomes.length);
  });

  it("maps event types onto the same states", () => {
    expect(statusStyle("bounce").key).toBe("bounced");
    expect(statusStyle("delivery").key).toBe("delivered");
    expect(statusStyle("complaint").tone).toBe(statusStyle("complained").tone);
    expect(statusStyle("DELIVERED").key).toBe("delivered");
  });

  it("renders unknown values neutrally with their own name", () => {
    const s = statusStyle("soft_bounced_maybe");
    expect(s.known).toBe(false);
    expect(s.tone).toBe("neutral");
    expect(s.label).toBe("Soft bounced maybe");
    expect(statusStyle(undefined).label).toBe("Unknown");
  });

  it("reads every spelling of the vocabulary as the same state", () => {
    for (const word of ["email.delivered", "Delivered", "DeliveryEvent", "delivery_succeeded"]) expect(statusStyle(word).key, word).toBe("delivered");
    expect(statusStyle("HardBounce").key).toBe("bounced");
    expect(statusStyle("spam_complaint").key).toBe("complained");
    expect(statusStyle("deferred").key).toBe("delayed");
    expect(statusStyle("inbound_rejected").key).toBe("rejected");
    expect(statusStyle("cancelled").key).toBe("canceled");
  });

  it("keeps the domain states their own styles", () => {
    expect(statusStyle("pending")).toMatchObject({ key: "pending", label: "Pending", tone: "warning" });
    expect(statusStyle("verified")).toMatchObject({ key: "verified", label: "Verified", tone: "success" });
    expect(statusStyle("failed")).toMatchObject({ key: "failed", label: "Failed", tone: "danger" });
  });

  it("shows an unknown word as the service wrote it, neutrally", () => {
    expect(statusStyle("Archived")).toMatchObject({ label: "Archived", tone: "neutral", known: false });
  });
});
