import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "./lib/server/security-headers";

const config: NextConfig = {
  // A separate build folder lets tests and a developer's own build coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "caniemail"],
  poweredByHeader: false,
  // NEXT_SOURCE_MAPS=1 for a build whose browser bundles can be analysed (what makes up a screen's first load).
  productionBrowserSourceMaps: process.env.NEXT_SOURCE_MAPS === "1",
  typedRoutes: false,
  // forbidden() in guardPage() renders the 403 page.
  experimental: { authInterrupts: true },
  async headers() {
    const noScripts = [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }];
    return [
      { source: "/:path*", headers: STATIC_SECURITY_HEADERS },
      // Pages get a CSP with a nonce from proxy.ts; what the proxy skips gets one that allows
      // nothing: API answers are data, and an SVG opened on its own could otherwise run script.
      { source: "/api/:path*", headers: noScripts },
      { source: "/favicon.svg", headers: noScripts },
      { source: "/_next/static/:path*", headers: noScripts },
    ];
  },
};

export default config;
