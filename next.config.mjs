// Plain JavaScript, not next.config.ts: Next compiles a TypeScript config with its native SWC
// binding at every `next start`, which then stays loaded for the life of the server (about
// 23 MB of its resident memory, bench:batch). The headers are data both this file and
// lib/server/http/security-headers.ts read.
import { readFileSync } from "node:fs";

/** @type {{ apiContentSecurityPolicy: string; staticSecurityHeaders: { key: string; value: string }[] }} */
const headers = JSON.parse(readFileSync(new URL("./lib/server/http/static-headers.json", import.meta.url), "utf8"));

/** @type {import("next").NextConfig} */
const config = {
  // A separate build folder lets tests and a developer's own build coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // prom-client and pino keep state per module (the registry, the log destination): loaded once from node_modules, not copied into each bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "caniemail", "prom-client", "pino"],
  poweredByHeader: false,
  // NEXT_SOURCE_MAPS=1 for a build whose browser bundles can be analysed (what makes up a screen's first load).
  productionBrowserSourceMaps: process.env.NEXT_SOURCE_MAPS === "1",
  typedRoutes: false,
  // The test harness's build (scripts/lib/stack.ts) skips Next's own pass of tsc: `npm test`
  // runs tsc over the whole repository as a part of its own, beside the browser tests, and a
  // second pass inside the build held every browser test back by half a minute or more.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === "1" },
  experimental: {
    // forbidden() in guardPage() renders the 403 page.
    authInterrupts: true,
    // Next copies a body for the proxy (proxy.ts, which runs on every page and on API paths
    // with a % escape) up to this size and cuts the rest off unseen: at MAX_REQUEST_BYTES
    // (lib/schemas/limits.ts, 20 MB), with every body declaring its length and none over it
    // (lib/server/http/request-body-limits.ts), no body reaches a route cut short.
    proxyClientMaxBodySize: 20 * 1024 * 1024,
    // Turbopack's cache on disk makes the next build quick (after a one-line change: 30 s
    // against 90 s), but writing it costs a build 12 s and 220 MB. CI builds a fresh clone
    // once and never builds it again: there it is only the cost.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  async headers() {
    const noScripts = [{ key: "Content-Security-Policy", value: headers.apiContentSecurityPolicy }];
    return [
      { source: "/:path*", headers: headers.staticSecurityHeaders },
      // Pages get a CSP with a nonce from proxy.ts; what the proxy skips gets one that allows
      // nothing: API answers are data, and an SVG opened on its own could otherwise run script.
      { source: "/api/:path*", headers: noScripts },
      { source: "/favicon.svg", headers: noScripts },
      { source: "/_next/static/:path*", headers: noScripts },
    ];
  },
};

export default config;
