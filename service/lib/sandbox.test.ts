import { describe, expect, it } from "vitest";
import { firstLink, sandboxOutcome, sandboxPlan } from "./sandbox";

const to = (...emails: string[]) => emails.map((email) => ({ email }));
const plan = (email: string, html: string | null = null) => sandboxPlan(to(email), { html, text: null }).map((s) => s.type);

describe("sandbox outcomes", () => {
  it("follow the first recipient whose local part names one, ignoring case and +label", () => {
    expect(sandboxOutcome(to("ann@x.test", "Bounce+welcome@x.test"))).toEqual({ outcome: "bounce", recipient: "Bounce+welcome@x.test" });
    expect(sandboxOutcome(to("ann@x.test")).outcome).toBe("delivered");
    expect(sandboxOutcome(to("bouncer@x.test")).outcome).toBe("delivered");
  });

  it("plan the events of each outcome", () => {
    expect(plan("delivered@x.test")).toEqual(["sent", "delivery"]);
    expect(plan("bounce@x.test")).toEqual(["sent", "bounce"]);
    expect(plan("softbounce@x.test")).toEqual(["sent", "delivery_delayed", "delivery"]);
    expect(plan("delayed@x.test")).toEqual(["sent", "delivery_delayed", "delivery"]);
    expect(plan("complaint@x.test")).toEqual(["sent", "delivery", "complaint"]);
    expect(plan("opened@x.test")).toEqual(["sent", "delivery", "open"]);
    expect(plan("clicked@x.test")).toEqual(["sent", "delivery", "open", "click"]);
    expect(plan("reject@x.test")).toEqual(["rejected"]);
    expect(plan("fail@x.test")).toEqual(["failed"]);
  });

  it("mark bounces and complaints for suppression", () => {
    expect(sandboxPlan(to("bounce@x.test"), { html: null, text: null }).at(-1)!.suppress).toBe("bounce");
    expect(sandboxPlan(to("complaint@x.test"), { html: null, text: null }).at(-1)!.suppress).toBe("complaint");
    expect(sandboxPlan(to("softbounce@x.test"), { html: null, text: null }).some((s) => s.suppress)).toBe(false);
  });

  it("click the first link of the html, else of the text", () => {
    expect(firstLink('<p><a class="b" href="https://a.test/1">1</a><a href="https://a.test/2">2</a></p>', null)).toBe("https://a.test/1");
    expect(firstLink(null, "See https://t.test/x?y=1 now")).toBe("https://t.test/x?y=1");
    expect(firstLink("<p>none</p>", null)).toBeNull();
  });
});
