import { describe, expect, it } from "vitest";
import { savedViewQuery } from "@/lib/schemas/saved-views";
import { openView, sameSearch } from "./saved-view-match";

/** The Views menu finds the open search's view by its parameters, not by the URL's text. */
describe("sameSearch", () => {
  const saved = savedViewQuery({ q: "invoice status:bounced", status: "bounced", tag: "plan:pro", from: "2026-01-01T00:00:00Z" });

  it("matches whatever the order of the parameters, their encoding or other parameters", () => {
    expect(sameSearch(saved, "from=2026-01-01T00%3A00%3A00Z&tag=plan%3Apro&status=bounced&q=invoice%20status%3Abounced")).toBe(true);
    expect(sameSearch(saved, `cursor=abc&${saved}&m=msg_1`)).toBe(true);
    expect(sameSearch(saved, new URLSearchParams(`${saved}&direction=`))).toBe(true);
  });

  it("compares q by its terms: spaces, order and a field name's case do not count", () => {
    expect(sameSearch(saved, saved.replace("q=invoice+status%3Abounced", `q=${encodeURIComponent("  Status:bounced   invoice ")}`))).toBe(true);
    expect(sameSearch("q=%22late+order%22+-from%3Ax%40y.test", "q=-FROM%3Ax%40y.test+%22late+order%22")).toBe(true);
  });

  it("compares times as the instant they name", () => {
    expect(sameSearch("from=2026-01-01T00:00:00Z", "from=2026-01-01T01:00:00%2B01:00")).toBe(true);
    expect(sameSearch("from=2026-01-01T00:00:00Z", "from=2026-01-01T00:00:01Z")).toBe(false);
  });

  it("tells different searches apart", () => {
    expect(sameSearch(saved, saved.replace("status=bounced", "status=delivered"))).toBe(false);
    expect(sameSearch("q=invoice", "q=invoices")).toBe(false);
    expect(sameSearch("q=%22late+order%22", "q=late+order")).toBe(false);
    expect(sameSearch("q=-invoice", "q=invoice")).toBe(false);
    expect(sameSearch("q=invoice", "q=invoice&tag=vip")).toBe(false);
    expect(sameSearch("", "q=invoice")).toBe(false);
    expect(sameSearch("", "cursor=abc")).toBe(true);
  });
});

describe("openView", () => {
  const view = (id: string, query: string, mine: boolean, canManage = mine) => ({ id, query, mine, canManage });
  const views = [view("theirs", "q=invoice", false), view("shared-admin", "q=invoice", false, true), view("mine", "q=invoice", true), view("other", "q=refund", true)];

  it("finds the reader's own view of the open search, spelt another way", () => {
    expect(openView(views, "q=%20invoice%20&cursor=x")?.id).toBe("mine");
    expect(openView(views.slice(0, 2), "q=invoice")?.id).toBe("shared-admin");
  });

  it("finds none the reader may not change, and none for another search", () => {
    expect(openView(views.slice(0, 1), "q=invoice")).toBeNull();
    expect(openView(views, "q=invoice&status=bounced")).toBeNull();
    expect(openView(undefined, "q=invoice")).toBeNull();
  });
});
