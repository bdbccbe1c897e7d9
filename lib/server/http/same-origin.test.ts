import { describe, expect, it } from "vitest";
import { PEER_HEADER } from "./client-address";
import { route } from "@/lib/server/gate/route";
import { isSameOriginWrite } from "./same-origin";
import { apiRequest, params, setTestEnv } from "@/lib/server/test-helpers";

/**
 * The CSRF check with the headers a real request carries: a `Host` always (browsers and
 * Node's HTTP server set it), the peer address our hook writes, and sometimes a proxy's
 * `X-Forwarded-Host`. PUBLIC_URL here is another origin (http://localhost:3000), so only the
 * Host comparison can accept these requests.
 */
const HOST = "dash.internal:8080";

function post(headers: Record<string, string>): Request {
  return new Request(`http://${HOST}/api/x`, { method: "POST", headers: { [PEER_HEADER]: "203.0.113.5", host: HOST, ...headers } });
}

describe("isSameOriginWrite with a Host header", () => {
  it("the request's own host as Origin passes; any other Origin is refused", () => {
    setTestEnv({ TRUSTED_PROXIES: undefined });
    expect(post({}).headers.get("host")).toBe(HOST);
    expect(isSameOriginWrite(post({ origin: `http://${HOST}` }))).toBe(true);
    for (const origin of ["http://evil.example", `http://${HOST}.evil.example`, "http://dash.internal:8081", "null", "not a url"]) {
      expect(isSameOriginWrite(post({ origin })), origin).toBe(false);
    }
    // No Origin: only the browser's own Sec-Fetch-Site says same-origin.
    expect(isSameOriginWrite(post({}))).toBe(false);
    expect(isSameOriginWrite(post({ "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOriginWrite(post({ "sec-fetch-site": "same-origin" }))).toBe(true);
    // Reads are never refused.
    expect(isSameOriginWrite(new Request(`http://${HOST}/api/x`, { headers: { host: HOST, origin: "http://evil.example" } }))).toBe(true);
  });

  it("without TRUSTED_PROXIES, X-Forwarded-Host is the client's own words and never compared", () => {
    setTestEnv({ TRUSTED_PROXIES: undefined });
    expect(isSameOriginWrite(post({ origin: "http://evil.example", "x-forwarded-host": "evil.example" }))).toBe(false);
    expect(isSameOriginWrite(post({ [PEER_HEADER]: "127.0.0.1", origin: "http://evil.example", "x-forwarded-host": "evil.example" }))).toBe(false);
    // The real Host still counts, whatever X-Forwarded-Host claims.
    expect(isSameOriginWrite(post({ origin: `http://${HOST}`, "x-forwarded-host": "evil.example" }))).toBe(true);
  });

  it("with TRUSTED_PROXIES, X-Forwarded-Host is read only from a listed peer", () => {
    setTestEnv({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" });
    try {
      const proxied = (origin: string, peer = "10.1.2.3") => post({ [PEER_HEADER]: peer, origin, "x-forwarded-host": "dash.example.com" });
      expect(isSameOriginWrite(proxied("https://dash.example.com"))).toBe(true);
      expect(isSameOriginWrite(proxied("http://evil.example"))).toBe(false);
      // A peer that is not a listed proxy: its X-Forwarded-Host is ignored, Host is compared.
      expect(isSameOriginWrite(proxied("https://dash.example.com", "203.0.113.5"))).toBe(false);
      expect(isSameOriginWrite(post({ origin: "http://evil.example", "x-forwarded-host": "evil.example" }))).toBe(false);
      // Through a proxy the forwarded host is what the browser saw, not the proxy's Host.
      expect(isSameOriginWrite(proxied(`http://${HOST}`))).toBe(false);
    } finally {
      setTestEnv({ TRUSTED_PROXIES: undefined });
    }
  });

  it("with TRUSTED_PROXIES, the rightmost X-Forwarded-Host (the proxy's own) counts, not one the client sent ahead of it", () => {
    setTestEnv({ TRUSTED_PROXIES: "10.0.0.0/8" });
    try {
      // A proxy that appends keeps the client's header on the left.
      const appended = (origin: string) => post({ [PEER_HEADER]: "10.1.2.3", origin, "x-forwarded-host": "evil.example, dash.example.com" });
      expect(isSameOriginWrite(appended("http://evil.example"))).toBe(false);
      expect(isSameOriginWrite(appended("https://dash.example.com"))).toBe(true);
      expect(isSameOriginWrite(post({ [PEER_HEADER]: "10.1.2.3", origin: "http://evil.example", "x-forwarded-host": "evil.example , dash.example.com " }))).toBe(false);
    } finally {
      setTestEnv({ TRUSTED_PROXIES: undefined });
    }
  });

  it("route() answers the review's request (Origin evil.example, X-Forwarded-Host evil.example) with 403", async () => {
    setTestEnv({ TRUSTED_PROXIES: undefined });
    const handler = route(null, async () => ({ created: true }));
    const evil = await apiRequest("/api/x", { method: "POST", origin: "http://evil.example", headers: { host: HOST, "x-forwarded-host": "evil.example", [PEER_HEADER]: "203.0.113.5" } });
    expect(evil.headers.get("host")).toBe(HOST);
    expect((await handler(evil, params({}))).status).toBe(403);
    const own = await apiRequest("/api/x", { method: "POST", origin: `http://${HOST}`, headers: { host: HOST, [PEER_HEADER]: "203.0.113.5" } });
    expect((await handler(own, params({}))).status).toBe(200);
  });
});
