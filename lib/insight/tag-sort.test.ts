import { describe, expect, it } from "vitest";
import type { TagRow } from "@/lib/schemas/insight-tags";
import { sortFrom, sortTagRows, tagLabel } from "./tag-sort";

const row = (value: string, sent: number, bounceRate: number | null, other = false): TagRow => ({
  name: other ? "" : "category",
  value: other ? "" : value,
  other,
  sent,
  delivered: sent,
  bounced: 0,
  complained: 0,
  opened: 0,
  clicked: 0,
  bounceRate,
  complaintRate: null,
  openRate: null,
  clickRate: null,
  bounceLevel: "ok",
  complaintLevel: "ok",
});
const rows = [row("invoice", 30, 0.01), row("", 99, 0.5, true), row("reset", 10, 0.2), row("welcome", 20, null)];
const order = (r: TagRow[]) => r.map((x) => (x.other ? "(other)" : tagLabel(x)));

describe("the Tags screen's order", () => {
  it("reads the URL: most sent first by default, unknown keys ignored, a tag A→Z", () => {
    expect(sortFrom(null, null)).toEqual({ key: "sent", dir: "desc" });
    expect(sortFrom("drop table", "sideways")).toEqual({ key: "sent", dir: "desc" });
    expect(sortFrom("tag", null)).toEqual({ key: "tag", dir: "asc" });
    expect(sortFrom("bounceRate", "asc")).toEqual({ key: "bounceRate", dir: "asc" });
  });

  it("sorts by a rate (nothing to divide by lowest), a count or the tag, with Other tags last whatever the order", () => {
    expect(order(sortTagRows(rows, { key: "bounceRate", dir: "desc" }))).toEqual(["category=reset", "category=invoice", "category=welcome", "(other)"]);
    expect(order(sortTagRows(rows, { key: "bounceRate", dir: "asc" }))).toEqual(["category=welcome", "category=invoice", "category=reset", "(other)"]);
    expect(order(sortTagRows(rows, { key: "sent", dir: "desc" }))).toEqual(["category=invoice", "category=welcome", "category=reset", "(other)"]);
    expect(order(sortTagRows(rows, { key: "tag", dir: "desc" }))).toEqual(["category=welcome", "category=reset", "category=invoice", "(other)"]);
  });
});
