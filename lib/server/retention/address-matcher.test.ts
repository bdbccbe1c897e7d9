import { describe, expect, it } from "vitest";
import { AddressMatcher, addressForms } from "./address-matcher";

const M = "erased:0123";
const matcher = new AddressMatcher([{ address: "erase-me@example.com", marker: M }]);

describe("finding an erased address in text", () => {
  it("in any case, inside display names, URLs and markup, as a substring", () => {
    expect(matcher.redact("Order for Erase-Me@Example.COM today")).toBe(`Order for ${M} today`);
    expect(matcher.redact('"Erase Me" <erase-me@example.com>, bob@example.com')).toBe(`"Erase Me" <${M}>, bob@example.com`);
    expect(matcher.redact('<a href="mailto:ERASE-ME@EXAMPLE.COM">write</a>')).toBe(`<a href="mailto:${M}">write</a>`);
    expect(matcher.redact("https://x.test/unsub?e=erase-me%40example.com&t=1")).toBe(`https://x.test/unsub?e=${M}&t=1`);
    expect(matcher.redact("xerase-me@example.community")).toBe(`x${M}munity`);
    expect(matcher.redact("erase-me＠example.com")).toBe(M);
    expect(matcher.redact("a erase-me@example.com b erase-me@example.com")).toBe(`a ${M} b ${M}`);
  });

  it("leaves other addresses and near misses alone, and answers the same string when there is nothing", () => {
    const text = "erase-me@example.co, rase-me@example.com, erase-me@exampl.com, erase-mex@example.com, @, %40, erase-me@";
    expect(matcher.redact(text)).toBe(text);
    expect(new AddressMatcher([]).redact("erase-me@example.com")).toBe("erase-me@example.com");
  });

  it("in Unicode and Punycode forms of an IDN domain, composed or decomposed", () => {
    const idn = new AddressMatcher([{ address: "Zoë@Exämple.com", marker: M }]);
    expect(idn.redact("to zoë@exämple.com")).toBe(`to ${M}`);
    expect(idn.redact("to ZOË@EXÄMPLE.COM")).toBe(`to ${M}`);
    expect(idn.redact("to zoë@xn--exmple-cua.com")).toBe(`to ${M}`);
    expect(idn.redact(`to ${"zoë@exämple.com".normalize("NFD")}`)).toBe(`to ${M}`);
    expect(idn.markerOf("ZOË@xn--exmple-cua.com")).toBe(M);
    expect(idn.markerOf("zoe@example.com")).toBeNull();
    expect(addressForms("a@b.io")).toEqual(expect.arrayContaining(["a@b.io", "a%40b.io"]));
  });

  it("takes time linear in the text, whatever it holds", () => {
    const many = new AddressMatcher(Array.from({ length: 50 }, (_, i) => ({ address: `person-${i}@example.com`, marker: `m${i}` })));
    // Near misses at every `@`: each walks the longest domain and local part before failing.
    const unit = "person-1@example.co person-1%40example.con erase-me@@@ ";
    const time = (n: number) => {
      const text = unit.repeat(n);
      const start = performance.now();
      expect(many.redact(text)).toBe(text);
      return performance.now() - start;
    };
    time(2_000); // warm-up
    const small = Math.min(time(20_000), time(20_000));
    const big = Math.min(time(80_000), time(80_000));
    // Four times the text: about four times the time (a quadratic scan would take sixteen).
    expect(big / small).toBeLessThan(8);
    // 4.4 MB in well under a second.
    expect(big).toBeLessThan(1_000);
  });
});
