import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/schemas/emails";
import { explainOutcome } from "./explain";

const base: Message = { id: "m1", from: "a@acme.test", to: ["ada@example.com"], subject: "Hi", status: "queued", direction: "outbound", createdAt: "2026-01-01T00:00:00Z", events: [] };

describe("explainOutcome", () => {
  it("a bounce with a suppression says so and names the next step", () => {
    const e = explainOutcome({ ...base, status: "bounced", events: [{ type: "bounce", data: { reason: "mailbox does not exist" } }] }, [{ email: "ada@example.com", reason: "bounce", createdAt: "x" }]);
    expect(e.title).toMatch(/suppressed/);
    expect(e.detail).toContain("mailbox does not exist");
    expect(e.next).toMatch(/remove the suppression/);
  });
  it("a rejection because of a suppression", () => {
    const e = explainOutcome({ ...base, status: "rejected", events: [{ type: "rejected", data: { reason: "recipient is suppressed" } }] });
    expect(e.title).toBe("Rejected: the address is suppressed");
  });
  it("a missing template variable", () => {
    const e = explainOutcome({ ...base, status: "failed", events: [{ type: "rendering_failure", data: { missing: ["firstName"] } }] });
    expect(e.title).toMatch(/template variable/);
    expect(e.detail).toContain("firstName");
  });
  it("a delay is waiting, with its cause", () => {
    const e = explainOutcome({ ...base, status: "sent", events: [{ type: "delivery_delayed", data: { reason: "greylisted" } }] });
    expect(e.tone).toBe("warning");
    expect(e.detail).toContain("greylisted");
  });
  it("delivered", () => {
    expect(explainOutcome({ ...base, status: "delivered" }).title).toBe("Delivered");
  });
  it("reads the service's own spellings of statuses and events", () => {
    const e = explainOutcome({ ...base, status: "Bounced", events: [{ type: "HardBounce", data: { bounce: { smtp_response: "550 5.1.1 user unknown" } } }] });
    expect(e.title).toBe("Bounced");
    expect(e.detail).toContain("550 5.1.1 user unknown");
  });
  it("an unknown status is shown as it is, and no longer said to be moving once settled", () => {
    const moving = explainOutcome({ ...base, status: "Archived" });
    expect(moving.title).toBe("Status: Archived");
    expect(moving.next).toMatch(/updates by itself/);
    const settled = explainOutcome({ ...base, status: "Archived" }, [], { settled: true });
    expect(settled.next).not.toMatch(/updates by itself/);
    expect(explainOutcome({ ...base, status: "sent" }, [], { settled: true }).next).not.toMatch(/updates by itself/);
  });
});
