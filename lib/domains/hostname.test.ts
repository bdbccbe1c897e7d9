import { describe, expect, it } from "vitest";
import { domainInput, normalizeHostname } from "./hostname";

function message(input: string): string {
  const result = normalizeHostname(input);
  if (result.ok) throw new Error(`expected "${input}" to be refused, got ${result.ascii}`);
  return result.message;
}

describe("normalizeHostname", () => {
  it("trims, lower-cases and drops the trailing dot of the absolute form", () => {
    expect(normalizeHostname("  Mail.Example.COM. ")).toEqual({ ok: true, ascii: "mail.example.com", unicode: "mail.example.com" });
  });

  it("converts internationalised names to punycode and back", () => {
    expect(normalizeHostname("Bücher.example")).toEqual({ ok: true, ascii: "xn--bcher-kva.example", unicode: "bücher.example" });
    expect(normalizeHostname("xn--mnchen-3ya.de")).toEqual({ ok: true, ascii: "xn--mnchen-3ya.de", unicode: "münchen.de" });
    // Full-width dots are mapped by IDNA, as browsers do in the address bar.
    expect(normalizeHostname("例え。テスト")).toMatchObject({ ok: true, ascii: "xn--r8jz45g.xn--zckzah", unicode: "例え.テスト" });
  });

  it("refuses a pasted URL, naming what to remove", () => {
    const cases: [string, string][] = [
      ["https://example.com", "Enter the domain only, without https://"],
      ["HTTP://example.com/", "Enter the domain only, without http://"],
      ["example.com/path?q=1", 'Enter the domain only, without a path (remove "/path?q=1")'],
      ["example.com:8080", 'Enter the domain only, without a port (remove ":8080")'],
      ["ada@Example.com", "Enter the domain only, not an email address (use example.com)"],
    ];
    for (const [input, said] of cases) expect(message(input), input).toBe(said);
  });

  it("refuses characters a hostname cannot have", () => {
    expect(message("exa mple.com")).toBe("A domain name cannot contain spaces");
    expect(message("my_domain.com")).toBe('A domain name can contain only letters, digits, hyphens and dots (remove "_")');
    expect(message("a%41.com")).toContain('(remove "%")');
    expect(message("*.example.com")).toContain('(remove "*")');
  });

  it("applies the label rules", () => {
    const cases: [string, string][] = [
      ["", "Enter a domain name, for example example.com"],
      ["   ", "Enter a domain name, for example example.com"],
      ["localhost", "Enter the full domain name with its ending, for example example.com"],
      ["a..example.com", "A domain name cannot start with a dot or have two dots in a row"],
      [".example.com", "A domain name cannot start with a dot or have two dots in a row"],
      ["example.com..", "A domain name cannot start with a dot or have two dots in a row"],
      ["-mail.example.com", 'A part of a domain name cannot start or end with a hyphen ("-mail")'],
      ["mail-.example.com", 'A part of a domain name cannot start or end with a hyphen ("mail-")'],
    ];
    for (const [input, said] of cases) expect(message(input), input).toBe(said);
    expect(message(`${"a".repeat(64)}.com`)).toMatch(/^Each part between dots may be at most 63 characters; "a{20}…" has 64$/);
    expect(normalizeHostname(`${"a".repeat(63)}.com`).ok).toBe(true);
    expect(message("1.2.3.4")).toBe("The last part cannot be only digits: an IP address is not a domain (for example example.com)");
    expect(message("0x7f.1")).toContain("cannot be only digits");
    expect(normalizeHostname("123.example").ok).toBe(true);
  });

  it("limits the whole name to 253 characters", () => {
    const label = "a".repeat(63);
    const ok = [label, label, label, "a".repeat(57), "com"].join("."); // 253
    expect(ok).toHaveLength(253);
    expect(normalizeHostname(ok).ok).toBe(true);
    expect(message(`b.${ok.slice(1)}`)).toBe("A domain name may be at most 253 characters; this one has 254");
  });

  it("refuses invalid punycode", () => {
    expect(message("xn--zz.com")).toBe("This internationalised domain name is not valid: check the spelling");
  });

  it("runs without Node built-ins: the module imports none", async () => {
    const { readFile } = await import("node:fs/promises");
    const source = await readFile(new URL("./hostname.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/from "node:/);
  });
});

describe("domainInput", () => {
  it("outputs the ASCII name", () => {
    expect(domainInput.parse({ domain: " Bücher.Example " })).toEqual({ domain: "xn--bcher-kva.example" });
  });

  it("names the domain field in its error", () => {
    const result = domainInput.safeParse({ domain: "https://example.com" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["domain"], message: "Enter the domain only, without https://" }),
    ]);
  });

  it("refuses a missing or non-string domain under the domain path", () => {
    for (const body of [{}, { domain: 42 }]) {
      const result = domainInput.safeParse(body);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({ path: ["domain"], message: "Enter a domain name" });
    }
  });
});
