import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url";

const origin = "http://localhost:3000";

/** Inputs that must stay on this site as the path given. */
const KEPT: [string, string][] = [
  ["/p/demo/messages?q=ada#top", "/p/demo/messages?q=ada#top"],
  ["http://localhost:3000/admin/users", "/admin/users"],
  ["HTTP://LOCALHOST:3000/admin/users", "/admin/users"],
  ["/p/demo/recipients/a%40b.example", "/p/demo/recipients/a%40b.example"],
  // Encoded slashes stay encoded: a browser reads them as one path segment on our origin.
  ["/%2F%2Fevil.example/x", "/%2F%2Fevil.example/x"],
  ["/%5Cevil.example", "/%5Cevil.example"],
  ["/%252F%252Fevil.example", "/%252F%252Fevil.example"],
  ["/./p/demo", "/p/demo"],
  ["/.%2F/evil.example", "/.%2F/evil.example"],
  ["/p/demo/../demo2", "/p/demo2"],
  ["/p/x?next=//evil.example", "/p/x?next=//evil.example"],
];

/** The usual open-redirect bypasses: every one ends at "/". */
const REFUSED: (string | undefined)[] = [
  undefined,
  "",
  "https://evil.example/x",
  "//evil.example/x",
  "///evil.example/x",
  "/\\evil.example",
  "\\\\evil.example",
  "/\\/evil.example",
  "/.//evil.example/x",
  "/./\\evil.example",
  "/../..//evil.example",
  "/%2e//evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/\r\n/evil.example",
  "/\u0000/evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "%6A%61%76%61%73%63%72%69%70%74:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "http:evil.example",
  "http:/evil.example",
  "http://evil.example",
  "HTTPS://evil.example",
  "https:evil.example",
  "http://localhost:3000@evil.example/",
  "http://user:pass@localhost:3000/p/demo",
  "//localhost:3000@evil.example",
  "http://localhost:3000.evil.example/",
  "http://localhost:3001/p/demo",
  "https://localhost:3000/p/demo",
  "@evil.example",
  "evil.example",
  "relative/path",
  "./p/demo",
  "/login?callbackUrl=/x",
  "/login/",
  "/api/projects",
  "/api",
  "x".repeat(2001),
];

describe("safeCallbackUrl", () => {
  it.each(KEPT)("%j → %j", (input, expected) => {
    expect(safeCallbackUrl(input, origin)).toBe(expected);
  });

  it.each(REFUSED.map((r) => [r]))("%j → /", (input) => {
    const result = safeCallbackUrl(input, origin);
    expect(result).toBe("/");
  });

  it("whatever it answers, a browser resolving it stays on our origin", () => {
    const inputs = [...REFUSED, ...KEPT.map(([i]) => i)].filter((i): i is string => typeof i === "string");
    for (const input of inputs) {
      const result = safeCallbackUrl(input, origin);
      expect(new URL(result, origin).origin, input).toBe(origin);
      expect(result.startsWith("/") && !result.startsWith("//"), input).toBe(true);
    }
  });
});
