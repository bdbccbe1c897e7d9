import { describe, expect, it } from "vitest";
import { mergeSearchParams } from "@/components/hooks/search-params";

describe("mergeSearchParams", () => {
  it("sets, replaces and removes values", () => {
    expect(mergeSearchParams("q=a&status=sent", { q: "b" })).toBe("q=b&status=sent");
    expect(mergeSearchParams("q=a&status=sent", { status: null })).toBe("q=a");
    expect(mergeSearchParams("q=a", { q: "" })).toBe("");
    expect(mergeSearchParams("", { tag: ["x", "y"] })).toBe("tag=x&tag=y");
  });

  it("drops the cursor when a filter changes, keeps it when paging", () => {
    expect(mergeSearchParams("q=a&cursor=c1", { q: "b" })).toBe("q=b");
    expect(mergeSearchParams("q=a", { cursor: "c2" })).toBe("cursor=c2&q=a");
    expect(mergeSearchParams("q=a&cursor=c1", { tab: "html" }, { keepCursor: true })).toBe("cursor=c1&q=a&tab=html");
  });
});
