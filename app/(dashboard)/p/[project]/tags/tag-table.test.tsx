import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TagRow, TagsData } from "@/lib/schemas/insight-tags";
import { TagTable } from "./tag-table";

const row = (value: string, sent: number, bounced: number, other = false): TagRow => ({
  name: other ? "" : "category",
  value: other ? "" : value,
  other,
  sent,
  delivered: sent - bounced,
  bounced,
  complained: 0,
  opened: 0,
  clicked: 0,
  bounceRate: bounced / sent,
  complaintRate: 0,
  openRate: 0,
  clickRate: 0,
  bounceLevel: bounced / sent >= 0.04 ? "limit" : "ok",
  complaintLevel: "ok",
});
const data: TagsData = {
  range: "7d",
  generatedAt: new Date(0).toISOString(),
  tags: [row("password reset", 200, 20), row("invoice", 10, 5), row("", 3, 0, true)],
  thresholds: { bounceWarning: 0.02, bounceLimit: 0.04, complaintWarning: 0.0008, complaintLimit: 0.001 },
  minVolume: 50,
  maxPairs: 100,
};

describe("the Tags table", () => {
  const html = renderToStaticMarkup(<TagTable project="acme shop" data={data} sort={{ key: "bounceRate", dir: "desc" }} onSort={() => {}} />);

  it("links each tag to Messages searching for it, quoted when it holds a space; Other tags links nowhere", () => {
    expect(html).toContain(`href="/p/acme%20shop/messages?q=${encodeURIComponent('tag:"category=password reset"')}"`);
    expect(html).toContain(`href="/p/acme%20shop/messages?q=${encodeURIComponent("tag:category=invoice")}"`);
    expect(html).toMatch(/data-tag="\(other\)"[^]*?Other tags<\/span>/);
    expect(html.match(/<a /g)).toHaveLength(2);
  });

  it("labels a rate's level only from the minimum volume, and marks the sorted column", () => {
    // 200 sent at 10 %: judged, over the limit. 10 sent at 50 %: shown, not judged.
    expect(html).toMatch(/data-tag="category=password reset"[^]*?data-metric="bounced" data-level="limit"[^]*?Over the limit/);
    expect(html).toMatch(/data-tag="category=invoice"[^]*?data-metric="bounced">/);
    expect(html).toContain('aria-sort="descending"');
    // Highest bounce rate first: the invoices (50 %) above the resets (10 %), Other tags last.
    expect(html.indexOf("category=invoice")).toBeLessThan(html.indexOf("category=password reset"));
    expect(html.indexOf("Other tags")).toBeGreaterThan(html.indexOf("category=password reset"));
  });
});
