import { Hono } from "hono";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { parse, readJson } from "../http";
import { newId, sha256 } from "../ids";
import { forbiddenText, invalid } from "../problems";
import type { Env } from "../runtime";

const createBody = z.object({
  name: z.string({ error: "is required" }).min(1, "is required"),
  senderId: z.string().min(1).optional(),
  scopes: z.array(z.string()).optional(),
});

/**
 * Scopes are recorded as given and not enforced: every key may do everything within its
 * reach. A project-scoped key creates keys for its own project only; omitting senderId then
 * means its own project, never the whole account.
 */
export const apiKeys = new Hono<Env>().post("/v1/api-keys", async (c) => {
  const body = parse(createBody, await readJson(c));
  const caller = c.get("key");
  const store = c.get("rt").store;
  if (body.senderId !== undefined && !store.projects.includes(body.senderId)) throw invalid([{ field: "senderId", message: `no project "${body.senderId}" in this account` }]);
  if (caller.projectId && body.senderId && body.senderId !== caller.projectId) throw forbiddenText("Forbidden: a project key can create keys for its own project only.");
  const projectId = body.senderId ?? caller.projectId;
  const secret = `ctr-${projectId ? "proj" : "acct"}-${randomBytes(20).toString("hex")}`;
  const created = { id: newId("ak"), name: body.name, hash: sha256(secret), projectId, scopes: body.scopes ?? [], createdAt: new Date() };
  store.keys.push(created);
  return c.json({ object: "api_key", id: created.id, name: created.name, secret, reach: projectId ? "project" : "account", createdAt: created.createdAt.toISOString() }, 201);
});
