import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { domainToASCII } from "node:url";
import { domain as domainShape, domainListQuery, hostname, idParam, pageQuery, receivingState } from "../../contract/wire";
import type { App } from "../context";
import { domains } from "../db/schema";
import { requireProject, requireResource, requireScope } from "../lib/auth";
import { receivingRecords, sendingRecords } from "../lib/domain-records";
import { ServiceError } from "../lib/errors";
import { newId } from "../lib/ids";
import { pageById } from "../lib/pagination";
import { scheduleFirstCheck } from "../worker/domains";
import { createdInProject, errorResponse, jsonAnswer, notFoundResponses, pagedList, routesTagged } from "./shared";

type DomainRow = typeof domains.$inferSelect;
export const toDomain = (row: DomainRow) => ({
  id: row.id,
  domain: row.domain,
  status: row.status,
  records: row.records,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The shared `hostname` schema, after turning an internationalized name into its
 * ASCII (punycode) form: `bücher.de` is stored and published as `xn--bcher-kva.de`.
 */
const addDomainBody = z.object({
  domain: z
    .string({ error: "is required" })
    .transform((v) => domainToASCII(v.trim()) || v)
    .pipe(hostname)
    .refine((h) => !/^\d+$/.test(h.slice(h.lastIndexOf(".") + 1)), { error: "must be a hostname, not an IP address" }),
});

const route = routesTagged("Domains");

const list = route({
  method: "get", path: "/v1/domains",
  ...pagedList(pageQuery.extend(domainListQuery.shape), domainShape, "A page of domains, newest first"),
});

const add = route({
  method: "post", path: "/v1/domains",
  ...createdInProject(addDomainBody, domainShape, "The domain, pending, with the DNS records to publish", {
    409: errorResponse("The project already has this domain"),
  }),
});

const receiving = route({
  method: "get", path: "/v1/domains/{id}/receiving",
  request: { params: idParam },
  responses: {
    200: jsonAnswer("Whether the domain receives mail, and the MX record(s) to publish", receivingState),
    ...notFoundResponses("No such domain"),
  },
});

export function register(app: App) {
  app.openapi(list, async (c) => {
    const project = await requireProject(c, "domains:read");
    const query = c.req.valid("query");
    const { data, nextCursor } = await pageById(c.get("deps").db, domains, query,
      eq(domains.projectId, project.id), query.status ? eq(domains.status, query.status) : undefined);
    return c.json({ data: data.map(toDomain), nextCursor }, 200);
  });

  app.openapi(add, async (c) => {
    const project = await requireProject(c, "domains:write");
    const { domain } = c.req.valid("json");
    const deps = c.get("deps");
    const exists = () => new ServiceError(409, "domain_exists", `domain: '${domain}' is already a domain of this project`, "domain");
    const [taken] = await deps.db.select({ id: domains.id }).from(domains)
      .where(and(eq(domains.projectId, project.id), eq(domains.domain, domain))).limit(1);
    if (taken) throw exists();

    const { records, dkimPrivateKey } = await sendingRecords(domain);
    const row = await deps.db.transaction(async (tx) => {
      const [inserted] = await tx.insert(domains).values({
        id: newId("dom"), projectId: project.id, domain, status: "pending",
        records, receivingRecords: receivingRecords(domain), dkimPrivateKey,
      }).onConflictDoNothing().returning();
      if (inserted) await scheduleFirstCheck(deps, tx, inserted.id, domain);
      return inserted;
    });
    if (!row) throw exists(); // added by a concurrent request since the check above
    deps.kick();
    return c.json(toDomain(row), 201);
  });

  app.openapi(receiving, async (c) => {
    requireScope(c.get("auth"), "domains:read");
    const { id } = c.req.valid("param");
    const [lookedUp] = await c.get("deps").db.select().from(domains).where(eq(domains.id, id)).limit(1);
    const row = await requireResource(c, lookedUp, "Domain");
    return c.json({ enabled: row.receivingEnabled, records: row.receivingRecords }, 200);
  });
}
