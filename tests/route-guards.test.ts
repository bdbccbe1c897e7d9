import { describe, expect, it } from "vitest";
import { apiRoutes } from "@/e2e/support/routes";

/**
 * The table access.spec.ts walks, read at once: every exported handler of every route file goes
 * through `route(permission, fn)` — in the file, or in the module a delegating file exports it
 * from (the doors before Next share their route's handler) — or is a signed route. A file that
 * does neither fails here in seconds, not at the browser suite's start.
 */
describe("API route handlers", () => {
  it("each declare their permission through route(), a delegate's found in its module", () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(90);
    const read = routes.find((r) => r.pattern === "/api/p/[project]/messages/[id]" && r.method === "GET");
    expect(read).toMatchObject({ permission: "messages:read", signed: false });
    expect(routes.find((r) => r.pattern === "/api/ingest/[project]")).toMatchObject({ method: "POST", signed: true });
  });
});
