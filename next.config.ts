import type { NextConfig } from "next";

const config: NextConfig = {
  // A separate build folder lets tests and a developer's own build coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  productionBrowserSourceMaps: false,
  typedRoutes: false,
};

export default config;
