import { describe, expect, it } from "vitest";
import { endsWithSeparator, splitAddressList, splitNamedAddress, withoutTrailingSeparators } from "./address-text";

// What these functions replace; kept here to check that they read every text alike.
const NAMED = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/;
const LIST_SEPARATOR = /[,;\n]+(?![^<]*>)/;
const TYPED_DONE = /[,;](?![^<]*>)\s*$/;

/** Deterministic pseudo-random strings over the characters that matter (a fixed seed, so a failure repeats). */
function* samples(count: number, alphabet: string[], maxLength: number): Generator<string> {
  let seed = 25;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < count; n++) {
    let s = "";
    const length = Math.floor(next() * maxLength);
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    yield s;
  }
}

describe("splitNamedAddress", () => {
  it("reads names and addresses", () => {
    expect(splitNamedAddress("Ada Lovelace <ada@example.com>")).toEqual({ name: "Ada Lovelace", email: "ada@example.com" });
    expect(splitNamedAddress(' "Lovelace, Ada" < ada@example.com > ')).toEqual({ name: "Lovelace, Ada", email: "ada@example.com" });
    expect(splitNamedAddress("<ada@example.com>")).toEqual({ name: "", email: "ada@example.com" });
    expect(splitNamedAddress("ada@example.com")).toBeNull();
    expect(splitNamedAddress('Ada "The" Countess <ada@example.com>')).toBeNull();
  });

  it("agrees with the regular expression it replaces on 20,000 generated texts", () => {
    for (const s of samples(20_000, ["a", " ", '"', "<", ">", "@", ",", "\t"], 12)) {
      const m = NAMED.exec(s);
      expect(splitNamedAddress(s), JSON.stringify(s)).toEqual(m ? { name: m[1]!.trim(), email: m[2]!.trim() } : null);
    }
  });

  // The regular expression took seconds here (cubic in the leading spaces, quadratic inside).
  it.each([
    ["leading spaces", " ".repeat(1_000_000) + "x"],
    ["inner spaces", "a" + " ".repeat(1_000_000) + "b"],
    ["a quote and spaces", '"' + " ".repeat(1_000_000) + "x"],
  ])("reads 1 MB of %s in well under a second", (_name, text) => {
    const started = performance.now();
    splitNamedAddress(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("splitAddressList", () => {
  it("splits at separators outside angle brackets", () => {
    expect(splitAddressList("a@x.io, Ada <ada@x.io>;\nb@x.io,,")).toEqual(["a@x.io", " Ada <ada@x.io>", "b@x.io", ""]);
    expect(splitAddressList("Odd <a,b@x.io>, c@x.io")).toEqual(["Odd <a,b@x.io>", " c@x.io"]);
  });

  it("agrees with the regular expression it replaces on 20,000 generated texts", () => {
    for (const s of samples(20_000, ["a", ",", ";", "\n", "<", ">", " "], 14)) {
      expect(splitAddressList(s), JSON.stringify(s)).toEqual(s.split(LIST_SEPARATOR));
      expect(endsWithSeparator(s), JSON.stringify(s)).toBe(TYPED_DONE.test(s));
      expect(withoutTrailingSeparators(s), JSON.stringify(s)).toBe(s.replace(/[,;]+$/, ""));
    }
  });

  // The lookahead rescanned the rest of the text after every comma.
  it.each([
    ["a, pairs", "a,".repeat(500_000)],
    ["commas inside brackets", "<" + ",a".repeat(500_000)],
  ])("reads 1 MB of %s in well under a second", (_name, text) => {
    const started = performance.now();
    splitAddressList(text);
    endsWithSeparator(text);
    withoutTrailingSeparators(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
