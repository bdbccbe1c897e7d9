import { describe, expect, it } from "vitest";
import { checkImages } from "./images";
import { parseSource } from "./source";

const html = [
  "<table><tr><td>",
  '  <img src="https://cdn.acme.test/logo.png" width="120" height="40" alt="Acme">',
  '  <img src="https://cdn.acme.test/hero.jpg?v=2" width="600">',
  '  <img src="http://cdn.acme.test/spacer.gif" alt="" style="width:1px; height:1px">',
  '  <img src="https://cdn.acme.test/hero.jpg?v=2" width="600">',
  "  <img alt=\"no source\" width=\"1\" height=\"1\">",
  "</td></tr></table>",
].join("\n");

const findings = checkImages(parseSource(html));
const rule = (r: string) => findings.filter((f) => f.rule === r);

describe("image checks", () => {
  it("flags a missing alt and a missing size once per image, counting repeats, at the first one", () => {
    expect(rule("image-alt")).toMatchObject([{ severity: "warning", count: 2, place: { line: 3, column: 3, excerpt: '<img src="https://cdn.acme.test/hero.jpg?v=2" width="600">', path: "table > tr > td > img:nth-of-type(2)" } }]);
    expect(rule("image-alt")[0]!.message).toContain('"hero.jpg"');
    expect(rule("image-size")).toMatchObject([{ severity: "warning", count: 2, place: { line: 3, column: 3 } }]);
  });

  it("accepts alt=\"\" and a size given in the style attribute, and flags the http: image", () => {
    expect(findings.filter((f) => f.place?.line === 4).map((f) => f.rule)).toEqual(["image-insecure"]);
    expect(rule("image-insecure")[0]).toMatchObject({ severity: "warning", place: { line: 4, column: 3 } });
  });

  it("flags an image without a source as an error", () => {
    expect(rule("image-no-src")).toMatchObject([{ severity: "error", place: { line: 6, column: 3 } }]);
  });

  it("has nothing to say about a complete https image", () => {
    expect(checkImages(parseSource('<img src="https://cdn.acme.test/logo.png" width="120" height="40" alt="Acme">'))).toEqual([]);
  });
});
