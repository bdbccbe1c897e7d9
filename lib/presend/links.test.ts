import { describe, expect, it } from "vitest";
import { checkLinks, domainShownIn, extractLinks, listLinks, siteOf } from "./links";
import { parseSource } from "./source";

const html = [
  "<p>Read <a href=\"https://acme.test/a\">the post</a>.</p>",
  "<p><a href=\"http://acme.test/old\">old</a> <a href='http://acme.test/old'>again</a></p>",
  "<a href=\"\">empty</a><a href=\"#\">top</a><a href=\" javascript:alert(1)\">run</a>",
  "<a href=\"https://evil.test/login\">https://acme.test/login</a>",
  "<a href=\"https://click.acme.test/r/1\">www.acme.test</a>",
  "<a href=\"mailto:help@acme.test?subject=Hi\">mail us</a> <a href=\"tel:+441234\">call</a>",
  "<a href=\"{{unsubscribeUrl}}\">Unsubscribe</a> <a href=\"/relative\">rel</a> <a name=\"x\">anchor</a>",
].join("\n");
/** Line and column (1-based) where `needle` starts on line `line` of the fixture. */
const at = (line: number, needle: string) => ({ line, column: html.split("\n")[line - 1]!.indexOf(needle) + 1 });

const findings = () => checkLinks(extractLinks(parseSource(html)));
const byRule = (rule: string) => findings().filter((f) => f.rule === rule);

describe("link checks", () => {
  it("flags an http: link once per address, with its count and first place", () => {
    const [f, ...rest] = byRule("link-insecure");
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: "warning", count: 2, place: { line: 2, column: 4, excerpt: '<a href="http://acme.test/old">', path: "p:nth-of-type(2) > a:nth-of-type(1)" } });
    expect(f!.message).toContain("http://acme.test/old");
  });

  it("flags empty, #-only and javascript: addresses at their exact places", () => {
    expect(byRule("link-empty")).toMatchObject([{ severity: "error", place: { line: 3, column: 1, excerpt: '<a href="">' } }]);
    expect(at(3, '<a href="#">')).toEqual({ line: 3, column: 21 });
    expect(byRule("link-fragment")).toMatchObject([{ severity: "warning", place: { line: 3, column: 21, excerpt: '<a href="#">' } }]);
    expect(byRule("link-javascript")).toMatchObject([{ severity: "error", place: at(3, '<a href=" javascript') }]);
    expect(byRule("link-relative")).toMatchObject([{ severity: "error", place: { ...at(7, '<a href="/relative">'), excerpt: '<a href="/relative">' } }]);
  });

  it("flags text that shows one domain while the link goes to another, not a subdomain of the same site", () => {
    const mismatches = byRule("link-text-domain");
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toMatchObject({ severity: "warning", place: { line: 4, column: 1 } });
    expect(mismatches[0]!.message).toContain("acme.test");
    expect(mismatches[0]!.message).toContain("evil.test");
  });

  it("lists every link with its host, recognising mailto:, tel: and merge variables, and leaves them unflagged", () => {
    const links = listLinks(extractLinks(parseSource(html)));
    expect(links.map((l) => [l.kind, l.host, l.count])).toEqual([
      ["web", "acme.test", 1],
      ["web", "acme.test", 2],
      ["other", null, 1],
      ["web", "evil.test", 1],
      ["web", "click.acme.test", 1],
      ["mailto", "help@acme.test", 1],
      ["tel", "+441234", 1],
      ["variable", null, 1],
      ["other", null, 1],
    ]);
    expect(findings().some((f) => f.place?.line === 6)).toBe(false);
    expect(findings().some((f) => f.place?.line === 7 && f.place.column === 1)).toBe(false);
  });

  it("has nothing to say about clean links", () => {
    const clean = '<a href="https://acme.test/a">acme.test</a> <a href="https://www.acme.test/b">https://acme.test/b</a> <a href="mailto:a@acme.test">a@acme.test</a>';
    expect(checkLinks(extractLinks(parseSource(clean)))).toEqual([]);
  });

  it("reads the domain a text shows, and the site a host belongs to", () => {
    expect(domainShownIn("https://Acme.test/path")).toBe("acme.test");
    expect(domainShownIn("Visit www.acme.test today")).toBe("www.acme.test");
    expect(domainShownIn("Read more")).toBeNull();
    expect(domainShownIn("report.pdf")).toBeNull();
    expect(domainShownIn(" acme.test). ")).toBe("acme.test");
    expect(domainShownIn("Go to https://acme.test/path?!")).toBe("acme.test");
    expect(siteOf("mail.shop.example.co.uk")).toBe("example.co.uk");
    expect(siteOf("www.example.com")).toBe("example.com");
  });
});

describe("domainShownIn on a long run of punctuation", () => {
  it("takes linear time: 40,000 punctuation marks not at the end are read once, not once per mark", () => {
    // The old /[.,;:!?)]+$/ tried the run from each of its marks: ~800 million steps here, seconds
    // on any machine; a loop from the end reads each mark once: milliseconds, far under the bound.
    const text = `${".,;:!?)".repeat(40_000 / 7)}x`;
    const started = performance.now();
    expect(domainShownIn(text)).toBeNull();
    expect(domainShownIn(`${text} acme.test...`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
