import path from "node:path";
import { describe, expect, it } from "vitest";
import { OTHER, routeMatcher, routePatternOf, scanRoutePatterns } from "./route-pattern";

const APP = path.resolve(__dirname, "../../../app");

describe("route patterns", () => {
  it("are read from app/: pages and route handlers, route groups left out", () => {
    const patterns = scanRoutePatterns(APP);
    expect(patterns).toEqual(
      expect.arrayContaining(["/", "/login", "/api/health", "/api/metrics", "/api/ingest/[project]", "/api/p/[project]/messages/[id]", "/p/[project]/messages", "/api/auth/[...nextauth]"]),
    );
    expect(patterns.some((p) => p.includes("("))).toBe(false);
  });

  it("name a path by its route: a fixed segment before a parameter, a catch-all last, anything else `other`", () => {
    const match = routeMatcher(["/", "/api/p/[project]/messages", "/api/p/[project]/messages/[id]", "/api/p/[project]/messages/export", "/api/auth/[...nextauth]", "/docs/[[...slug]]"]);
    expect(match("/")).toBe("/");
    expect(match("/api/p/demo/messages")).toBe("/api/p/[project]/messages");
    expect(match("/api/p/demo/messages/export")).toBe("/api/p/[project]/messages/export");
    expect(match("/api/p/demo/messages/msg_1")).toBe("/api/p/[project]/messages/[id]");
    expect(match("/api/auth/callback/credentials")).toBe("/api/auth/[...nextauth]");
    expect(match("/api/auth")).toBe(OTHER);
    expect(match("/docs")).toBe("/docs/[[...slug]]");
    expect(match("/docs/a/b")).toBe("/docs/[[...slug]]");
    expect(match("/api/p/demo/messages/msg_1/more")).toBe(OTHER);
    expect(match("/_next/static/chunks/app-123.js")).toBe("/_next/static");
    expect(match(`/${"a/".repeat(1000)}`)).toBe(OTHER);
  });

  it("never keep a path's own values: an address in the path becomes its parameter's name", () => {
    expect(routePatternOf("/api/p/demo/recipients/ada%40example.com?cursor=x")).toBe("/api/p/[project]/recipients/[email]");
    expect(routePatternOf("/p/demo/recipients/ada@example.com")).toBe("/p/[project]/recipients/[email]");
    expect(routePatternOf("/wp-login.php")).toBe(OTHER);
  });
});
