import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { STATIC_SECURITY_HEADERS, API_CONTENT_SECURITY_POLICY } from "@/lib/server/http/security-headers";

/**
 * What `next start` does with our config, in a Node process of its own (as the server's):
 * load it the way the server does and report what ended up in the process. A TypeScript
 * config is compiled with Next's native SWC binding, which then stays mapped for the life of
 * the server, about 23 MB of its resident memory (bench:batch's 400 MB budget).
 */
function loadAsServer(): { swcMapped: boolean; proxyClientMaxBodySize: number; headers: { source: string; headers: { key: string; value: string }[] }[] } {
  const script = `
    const { default: loadConfig } = require("next/dist/server/config");
    const { PHASE_PRODUCTION_SERVER } = require("next/dist/shared/lib/constants");
    loadConfig(PHASE_PRODUCTION_SERVER, process.cwd(), { silent: true }).then(async (config) => {
      // The shared libraries the process has loaded, on any platform (Node's diagnostic report).
      const swcMapped = process.report.getReport().sharedObjects.some((path) => path.includes("next-swc"));
      process.stdout.write(JSON.stringify({ swcMapped, proxyClientMaxBodySize: config.experimental.proxyClientMaxBodySize, headers: await config.headers() }));
    });`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: process.cwd(), encoding: "utf8", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }));
}

describe("next.config", () => {
  const loaded = loadAsServer();

  it("loads without Next's native compiler, so the server does not keep it resident", () => {
    expect(loaded.swcMapped).toBe(false);
  });

  it("gives every answer the shared security headers and API answers a CSP that allows nothing", () => {
    const all = loaded.headers.find((h) => h.source === "/:path*");
    expect(all?.headers).toEqual(STATIC_SECURITY_HEADERS);
    expect(STATIC_SECURITY_HEADERS.map((h) => h.key)).toContain("X-Frame-Options");
    for (const source of ["/api/:path*", "/favicon.svg", "/_next/static/:path*"]) {
      expect(loaded.headers.find((h) => h.source === source)?.headers).toEqual([{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }]);
    }
    expect(API_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
  });

  // Issue 25 item 13: Next keeps the config's header over a route's own, so the attachment
  // download's sandbox has to be in the policy every /api answer gets.
  it("sandboxes every API answer, so a downloaded attachment opened on its own has an opaque origin and runs nothing", () => {
    const api = loaded.headers.find((h) => h.source === "/api/:path*")?.headers.find((h) => h.key === "Content-Security-Policy")?.value ?? "";
    expect(api.split(";").map((d) => d.trim())).toEqual(expect.arrayContaining(["sandbox", "default-src 'none'"]));
  });

  it("lets Next's proxy copy a body up to MAX_REQUEST_BYTES, so a body the dashboard takes never reaches a route cut short", () => {
    // Next's own default is 10 MB: a 12 MB body to an API path with a % escape arrived cut to 10 MB.
    expect(loaded.proxyClientMaxBodySize).toBe(MAX_REQUEST_BYTES);
  });
});
