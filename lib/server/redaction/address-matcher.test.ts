import { describe, expect, it } from "vitest";
import { AddressMatcher, addressForms } from "./address-matcher";
import { workDone } from "./decoded-text";

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

  it("escaped as pages, links and mail bodies escape it, replacing exactly the escapes it was read from", () => {
    // HTML character references: what every client shows as the address.
    expect(matcher.redact('<a href="mailto:erase-me&#64;example.com">erase-me&#x40;example.com</a>')).toBe(`<a href="mailto:${M}">${M}</a>`);
    expect(matcher.redact("Write to erase-me&commat;example&period;com.")).toBe(`Write to ${M}.`);
    expect(matcher.redact("erase-me&#064example.com &#X40;")).toBe(`${M} &#X40;`);
    expect(matcher.redact("&#101;&#x72;&#97;&#x73;&#101;&#45;&#109;&#101;&#64;&#101;xample.com")).toBe(M);
    // Percent-encoding, of any character and twice over (a tracking link's own link).
    expect(matcher.redact("u=erase%2Dme%40example%2Ecom&x=1")).toBe(`u=${M}&x=1`);
    expect(matcher.redact("r=https%3A%2F%2Fx.test%2F%3Fe%3Derase-me%2540example.com")).toBe(`r=https%3A%2F%2Fx.test%2F%3Fe%3D${M}`);
    expect(matcher.redact("erase-me&#37;40example.com")).toBe(M);
    // Quoted-printable, soft line breaks included.
    expect(matcher.redact("Dear erase-me=40example.com,")).toBe(`Dear ${M},`);
    expect(matcher.redact("Dear erase-me@exam=\r\nple.com,")).toBe(`Dear ${M},`);
    // In Unicode: UTF-8 percent-encoded, or a named reference.
    const idn = new AddressMatcher([{ address: "Zoë@Exämple.com", marker: M }]);
    expect(idn.redact("to=zo%C3%AB%40ex%C3%A4mple.com")).toBe(`to=${M}`);
    expect(idn.redact("<p>Zo&euml;@Ex&auml;mple.com</p>")).toBe(`<p>${M}</p>`);
  });

  it("still finds an address written plainly next to what looks like an escape, and leaves escaped near misses alone", () => {
    const hexy = new AddressMatcher([{ address: "12ab@example.com", marker: M }]);
    expect(hexy.redact("?to=12ab@example.com")).toBe(`?to=${M}`);
    expect(hexy.redact("50%12ab@example.com")).toBe(`50%${M}`);
    expect(new AddressMatcher([{ address: "ampersand@example.com", marker: M }]).redact("&ampersand@example.com")).toBe(`&${M}`);
    const text = "erase-me&#64;example.co erase-me%40exampl%65.org erase%2Dmex%40example.com &amp;#64;";
    expect(matcher.redact(text)).toBe(text);
  });

  it("does work linear in the text, whatever it holds: counted, not timed", () => {
    // Fifty erased addresses, one with a long local part and one whose domains nest (`e.co`,
    // `e.com`, `e.com.au`): the most a `@` can cost.
    const long = "a".repeat(60);
    const many = new AddressMatcher([
      ...Array.from({ length: 47 }, (_, i) => ({ address: `person-${i}@example.com`, marker: `m${i}` })),
      ...["e.co", "e.com", "e.com.au"].map((domain, i) => ({ address: `x${long}@${domain}`, marker: `n${i}` })),
    ]);
    const units: Record<string, string> = {
      // Near misses at every `@`: each walks the longest domain and local part before failing.
      plain: "person-1@example.co person-1%40example.con erase-me@@@ ",
      nested: `${long}@e.com.a ${long}@e.com.a `,
      // Escapes every few units, nested ones, and ones that fail late.
      escapes: "&#112;erson-1&#64;example.co person-1%2540exampl%65.con &commat;&#x40;&#37;40 =40=3D=\r\n %C3%A4&euml; ",
      failing: "%C3%C3%E2%82%%%&amp&ampxyz&#x&#;&comma =4=\r= ",
      digits: `&#${"0".repeat(200)}64;&#x${"0".repeat(200)};`,
      mixed: `${long}&#64;e.com.a person-1=40example.co %65%72%61%73%65%2D%6D%65%40exampl%65.co `,
    };
    const work = (text: string) => {
      workDone.units = 0;
      expect(many.redact(text)).toBe(text);
      return workDone.units;
    };
    for (const [name, unit] of Object.entries(units)) {
      const n = Math.ceil(20_000 / unit.length);
      const small = work(unit.repeat(n));
      const big = work(unit.repeat(4 * n));
      // Four times the text: four times the work (a quadratic scan would do sixteen), and a
      // bounded number of units looked at per unit of text.
      expect(big / small, name).toBeLessThan(4.1);
      expect(big / (4 * n * unit.length), name).toBeLessThan(50);
    }
    // One run the length of the whole text (a reference's digits, a local part): no worse.
    const run = (n: number) => work(`&#${"1".repeat(n)}@e.com ${"a".repeat(n)}@e.com`);
    expect(run(400_000) / run(100_000)).toBeLessThan(4.1);
  });
});
