import { Hono } from "hono";
import type { Env } from "../runtime";

/**
 * Not part of the interface: what a test needs to see inside the contrarian. Account-wide key
 * only. `GET /__contrarian/deliveries` lists every webhook delivery attempt with the answer it got.
 */
export const testAids = new Hono<Env>().get("/__contrarian/deliveries", (c) => {
  if (c.get("key").projectId !== null) return c.text("Forbidden: the delivery log needs the account-wide key.", 403);
  const project = c.req.query("project");
  const data = c.get("rt").store.deliveries.filter((d) => !project || d.projectId === project);
  return c.json({ data });
});
