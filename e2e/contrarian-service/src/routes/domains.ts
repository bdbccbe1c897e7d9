import { Hono } from "hono";
import { z } from "zod";
import { findInReach, page, parse, projectOf, readJson } from "../http";
import { newId } from "../ids";
import { conflict, invalid } from "../problems";
import type { Runtime, Env } from "../runtime";
import type { DnsRecord, StoredDomain } from "../store";
import { domainView } from "../views";

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The records the contrarian asks for: an ownership token, DKIM by CNAME, SPF on the apex, a return-path MX. */
function recordsFor(domain: string): DnsRecord[] {
  return [
    { type: "TXT", name: `_contrarian-challenge.${domain}`, value: `contrarian-verification=${newId("dn", 12).slice(3).toLowerCase()}`, purpose: "ownership", verified: false },
    { type: "CNAME", name: `cx1._domainkey.${domain}`, value: "cx1.dkim.contrarian.invalid", purpose: "dkim", verified: false },
    { type: "TXT", name: domain, value: "v=spf1 include:spf.contrarian.invalid -all", purpose: "spf", verified: false },
    { type: "MX", name: `rp.${domain}`, value: "feedback.contrarian.invalid", priority: 20, purpose: "return_path", verified: false },
  ];
}

/**
 * A domain verifies by itself `domainVerifyMs` after it is added (records and receiving
 * together), except names starting `fail-` (they become `failed`) and `never-` (pending for ever).
 */
export function addDomain(rt: Runtime, projectId: string, domain: string, verifyInMs = rt.config.domainVerifyMs): StoredDomain {
  const created: StoredDomain = {
    id: newId("dn"),
    projectId,
    domain,
    state: "pending",
    records: recordsFor(domain),
    receiving: { enabled: false, records: [{ type: "MX", name: domain, value: "mx1.contrarian.invalid", priority: 5, purpose: "inbound", verified: false }] },
    createdAt: new Date(),
  };
  rt.store.domains.push(created);
  const settle = () => {
    if (domain.startsWith("never-")) return;
    if (domain.startsWith("fail-")) {
      created.state = "failed";
      return;
    }
    for (const r of [...created.records, ...created.receiving.records]) r.verified = true;
    created.receiving.enabled = true;
    created.state = "verified";
  };
  if (verifyInMs === 0) settle();
  else rt.timers.after(verifyInMs, settle);
  return created;
}

const STATUSES = ["pending", "verified", "failed"] as const;

export const domains = new Hono<Env>()
  // List items carry no status (the interface lists only id, domain, records, createdAt); ?status= still filters.
  .get("/v1/domains", (c) => {
    const projectId = projectOf(c, true);
    const status = c.req.query("status");
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw invalid([{ field: "status", message: "must be pending, verified or failed" }]);
    const items = c.get("rt").store.domains.filter((d) => d.projectId === projectId && (!status || d.state === status));
    return c.json(page(c, `domains${status ?? ""}`, items, (d) => domainView(d, false)));
  })
  .post("/v1/domains", async (c) => {
    const projectId = projectOf(c, true);
    const body = parse(z.object({ domain: z.string({ error: "is required" }) }), await readJson(c));
    const name = body.domain.trim().toLowerCase().replace(/\.$/, "");
    if (!HOSTNAME.test(name)) throw invalid([{ field: "domain", message: "must be a hostname such as mail.example.org" }]);
    const rt = c.get("rt");
    if (rt.store.domains.some((d) => d.projectId === projectId && d.domain === name)) throw conflict("domain", "this project already has this domain");
    return c.json(domainView(addDomain(rt, projectId, name), true), 201);
  })
  .get("/v1/domains/:id/receiving", (c) => {
    const id = c.req.param("id");
    const d = findInReach(c, c.get("rt").store.domains, (x) => x.id === id, `Domain ${id}`);
    return c.json({ enabled: d.receiving.enabled, records: d.receiving.records, mode: "catch-all" });
  });
