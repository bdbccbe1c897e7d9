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
});
