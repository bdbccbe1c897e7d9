import { describe, expect, it } from "vitest";
import { NextRequest, type NextFetchEvent } from "next/server";
import { encode } from "next-auth/jwt";
import { setTestEnv, TEST_SECRET } from "@/lib/server/test-helpers";
import { config, proxy } from "./proxy";

/**
 * The proxy itself, called as Next calls it: every page answer carries the CSP (with a
 * fresh nonce) and, when PUBLIC_URL is https, HSTS — signed in or sent to the sign-in page.
 */
const event = { waitUntil: () => {} } as unknown as NextFetchEvent;

async function get(url: string, cookie?: string) {
  return proxy(new NextRequest(url, { headers: cookie ? { cookie } : {} }), event);
}

/** Next matches `config.matcher` against the whole path. */
const matched = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));

describe("proxy", () => {
  it("sends HSTS with every page when PUBLIC_URL is https, and not over http", async () => {
    setTestEnv({ PUBLIC_URL: "https://mail.example.com" });
    const name = "__Secure-authjs.session-token";
    const cookie = `${name}=${await encode({ token: { sub: "u1", sid: "s1", authAt: Date.now() }, secret: TEST_SECRET, salt: name })}`;
    const redirected = await get("https://mail.example.com/p/acme/messages");
    expect(redirected.status).toBe(307);
    const page = await get("https://mail.example.com/p/acme/messages", cookie);
    expect(page.headers.get("x-middleware-next")).toBe("1");
    for (const res of [redirected, page, await get("https://mail.example.com/login")]) {
      expect(res.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
      expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'.*upgrade-insecure-requests/);
    }
    setTestEnv({ PUBLIC_URL: "http://localhost:3000" });
    const plain = await get("http://localhost:3000/login");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    expect(plain.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("runs for every page, whatever its path ends in, and skips only API routes, build assets and the public file", () => {
    for (const path of ["/", "/login", "/p/acme/recipients/a%40b.svg", "/p/acme/recipients/x%40y.example.png", "/nope.js", "/robots.txt", "/p/acme.prod/messages", "/api"]) {
      expect(matched(path), path).toBe(true);
    }
    for (const path of ["/api/health", "/api/p/acme/messages", "/_next/static/chunks/app.js", "/_next/image", "/favicon.svg"]) {
      expect(matched(path), path).toBe(false);
    }
  });
});
