import fc from "fast-check";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { pageQuery } from "@/lib/schemas/common";
import { auditQuery } from "@/lib/schemas/audit";
import { createApiKeyForm } from "@/lib/schemas/api-keys-form";
import { batchCheckRequest, batchJobRequest, composeForm, contactImportRequest, jobRowsQuery } from "@/lib/schemas/compose";
import { createContactRequest } from "@/lib/schemas/contacts";
import { contactSearchQuery, resubscribeRequest } from "@/lib/schemas/contacts-form";
import { addDomainRequest } from "@/lib/schemas/domains";
import { inboundSimulateRequest } from "@/lib/schemas/emails";
import { messageListQuery, replyForm } from "@/lib/schemas/messages-index";
import { createProjectRequest, updateProjectRequest } from "@/lib/schemas/projects";
import { addSuppressionRequest } from "@/lib/schemas/suppressions";
import { previewRequest } from "@/lib/schemas/templates";
import { renderRequest, sampleRequest, testSendRequest } from "@/lib/schemas/templates-form";
import { createUserRequest, updateUserRequest, userProjectsRequest } from "@/lib/schemas/users";
import { createWebhookForm, deleteWebhookBody } from "@/lib/schemas/webhooks-form";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { userProjects, users } from "@/lib/server/db/schema/core";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startRealService } from "@/lib/test/real-service";
import { eq } from "drizzle-orm";
import { assertProperty, bodyArb, FUZZ, hostileString, namesAField, queryArb, type BodyCase } from "@/lib/test/fuzz/arbitrary";

/**
 * Every /api route handler of the dashboard, found on disk, called in process with real
 * sessions (admin, support, marketer, an admin limited to one project, signed out) against
 * the real bundled service over HTTP. Bodies and queries are generated from the zod schema
 * each route reads (the table below) plus hostile mutations; path parameters arrive as Next
 * hands them over, decoded, including NUL bytes and leftovers of bad percent-encoding.
 * Properties: no answer is a 5xx; every 400 names its field.
 */
const ROOT = __dirname;

/** What each route reads, by method and route pattern; routes not listed get any JSON. */
const SCHEMAS: Record<string, { body?: z.ZodType; query?: z.ZodType }> = {
  "GET /admin/audit": { query: auditQuery },
  "PUT /admin/users/[id]/projects": { body: userProjectsRequest },
  "PATCH /admin/users/[id]": { body: updateUserRequest },
  "POST /admin/users": { body: createUserRequest },
  "POST /p/[project]/api-keys": { body: createApiKeyForm },
  "GET /p/[project]/batches/[id]/rows": { query: jobRowsQuery },
  "POST /p/[project]/batches/check": { body: batchCheckRequest },
  "POST /p/[project]/batches": { body: batchJobRequest },
  "POST /p/[project]/contacts/[id]/resubscribe": { body: resubscribeRequest },
  "GET /p/[project]/contacts/import/[id]/rows": { query: jobRowsQuery },
  "POST /p/[project]/contacts/import": { body: contactImportRequest },
  "GET /p/[project]/contacts": { query: contactSearchQuery },
  "POST /p/[project]/contacts": { body: createContactRequest },
  "GET /p/[project]/domains": { query: pageQuery },
  "POST /p/[project]/domains": { body: addDomainRequest },
  "POST /p/[project]/emails": { body: composeForm },
  "POST /p/[project]/inbound/simulate": { body: inboundSimulateRequest },
  "POST /p/[project]/messages/[id]/reply": { body: replyForm },
  "GET /p/[project]/messages": { query: messageListQuery },
  "GET /p/[project]/recipients/[email]": { query: pageQuery },
  "GET /p/[project]/suppressions": { query: pageQuery },
  "POST /p/[project]/suppressions": { body: addSuppressionRequest },
  "POST /p/[project]/templates/[id]/render": { body: renderRequest },
  "POST /p/[project]/templates/[id]/samples": { body: sampleRequest },
  "POST /p/[project]/templates/[id]/test": { body: testSendRequest },
  "POST /p/[project]/templates/preview": { body: previewRequest },
  "GET /p/[project]/templates": { query: pageQuery },
  "DELETE /p/[project]/webhooks/[id]": { body: deleteWebhookBody },
  "GET /p/[project]/webhooks": { query: pageQuery },
  "POST /p/[project]/webhooks": { body: createWebhookForm },
  "POST /projects": { body: createProjectRequest },
  "PATCH /projects/[id]": { body: updateProjectRequest },
};

/** Auth.js's own handler is its library's business (and needs the whole Next runtime). */
const SKIPPED = new Set(["auth/[...nextauth]"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Target = { pattern: string; method: string; handler: Handler; params: string[] };

function routeFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full, `${prefix}/${name}`);
    return name === "route.ts" ? [prefix] : [];
  });
}

const ROLES = ["admin", "support", "marketer", "limited-admin", "signed-out"] as const;
let cookies: Record<(typeof ROLES)[number], string | null>;
let real: Awaited<ReturnType<typeof startRealService>>;
let dispose: () => Promise<void>;
const targets: Target[] = [];
let cases = 0;
/** Answers that got past the guard (not 401/403, not the guard's 404): the fuzz must reach the handlers. */
let pastGuard = 0;
const slowest: { where: string; ms: number }[] = [];

beforeAll(async () => {
  // No DNS from the fuzz run: every webhook host "does not resolve".
  real = await startRealService({}, { resolve: async () => [] });
  setTestEnv({ SERVICE_URL: real.url, SERVICE_API_KEY: real.key, SERVICE_TIMEOUT_MS: "30000", DNS_RESOLVER: "127.0.0.1:9" });
  ({ dispose } = await useTestDb());
  const alpha = await registerProject({ externalId: "alpha" }, SYSTEM_ACTOR, { checkWithService: false });
  await registerProject({ externalId: "beta" }, SYSTEM_ACTOR, { checkWithService: false });
  const make = async (email: string, role: "admin" | "support" | "marketer") =>
    (await createUser(createUserRequest.parse({ email, role, password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id;
  const limited = await make("limited@example.com", "admin");
  const d = await db();
  await d.update(users).set({ allProjects: false }).where(eq(users.id, limited));
  await d.insert(userProjects).values({ userId: limited, projectId: alpha.id });
  cookies = {
    admin: await sessionCookie(await make("admin@example.com", "admin")),
    support: await sessionCookie(await make("support@example.com", "support")),
    marketer: await sessionCookie(await make("marketer@example.com", "marketer")),
    "limited-admin": await sessionCookie(limited),
    "signed-out": null,
  };
  for (const dir of routeFiles(ROOT)) {
    const pattern = dir.replace(/^\//, "");
    if (SKIPPED.has(pattern)) continue;
    const mod = (await import(path.join(ROOT, dir, "route.ts"))) as Record<string, unknown>;
    const params = [...dir.matchAll(/\[(\w+)\]/g)].map((m) => m[1]);
    for (const method of METHODS) if (typeof mod[method] === "function") targets.push({ pattern: `/${pattern}`, method, handler: mod[method] as Handler, params });
  }
}, 120_000);
afterAll(async () => {
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`fuzz: slowest handlers: ${slowest.slice(0, 5).map((s) => `${s.where} ${Math.round(s.ms)} ms`).join("; ")}`);
  console.log(`fuzz: dashboard /api routes, ${cases} requests over ${targets.length} handlers x ${ROLES.length} roles (seed ${FUZZ.seed}, ${FUZZ.runs * 2} runs per handler)`);
  await dispose();
  await real.close();
});

const ORDINARY: Record<string, string[]> = {
  project: ["alpha", "beta", "gamma"],
  id: ["msg_none", "1", "abc", "wh_none"],
  email: ["ada@example.com", "delivered@example.com"],
  attachmentId: ["att_none"],
  sampleId: ["s1"],
};

function paramValue(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(ORDINARY[name] ?? ["x"])) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9_.@-]{1,24}$/) },
    // Next decodes parameters before the handler: "%2500" arrives as "%00", "%00" as NUL.
    { weight: 2, arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 5000) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map((s) => `${s}\u0000`) },
  );
}

async function call(t: Target, role: (typeof ROLES)[number], params: string[], query: string, body: BodyCase, sameOrigin: boolean): Promise<Response> {
  const values = Object.fromEntries(t.params.map((name, i) => [name, params[i]]));
  let urlPath = t.pattern;
  for (const [name, value] of Object.entries(values)) urlPath = urlPath.replace(`[${name}]`, encodeURIComponent((value as string & { toWellFormed(): string }).toWellFormed()));
  const headers: Record<string, string> = {};
  const cookie = cookies[role];
  if (cookie) headers.cookie = cookie;
  if (t.method !== "GET" && sameOrigin) headers.origin = "http://localhost:3000";
  let payload: BodyInit | undefined;
  if (t.method !== "GET") {
    payload = ("json" in body ? (JSON.stringify(body.json) ?? "") : body.raw) as BodyInit;
    headers["content-type"] = "application/json";
  }
  const req = new NextRequest(`http://localhost:3000/api${urlPath}${query ? `?${query}` : ""}`, { method: t.method, headers, body: payload });
  return t.handler(req, { params: Promise.resolve(values) });
}

describe("fuzz: the dashboard's /api routes", () => {
  it("finds every route handler", () => {
    expect(targets.length).toBeGreaterThanOrEqual(60);
    for (const key of Object.keys(SCHEMAS)) expect(targets.map((t) => `${t.method} ${t.pattern}`)).toContain(key);
  });

  it("answers no 5xx to any input, as any role, and names the field of every 400", async () => {
    const quiet = (["error", "warn"] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    try {
      for (const t of targets) {
        const schemas = SCHEMAS[`${t.method} ${t.pattern}`] ?? {};
        const started = performance.now();
        await assertProperty(
          fc.asyncProperty(
            fc.constantFrom(...ROLES),
            fc.tuple(...t.params.map(paramValue)),
            t.method === "GET" ? queryArb(schemas.query ?? null) : fc.constant(""),
            bodyArb(schemas.body ?? null),
            fc.constantFrom(true, true, true, true, false), // mostly same-origin, sometimes not (403)
            async (role, params, query, body, sameOrigin) => {
              const res = await call(t, role, params as string[], query, body, sameOrigin);
              cases++;
              const text = await res.text();
              const where = `${t.method} ${t.pattern} as ${role}`;
              if (res.status >= 500) throw new Error(`${where} → ${res.status}: ${text.slice(0, 400)}`);
              if (![401, 403].includes(res.status) && !text.includes('"project_not_found"')) pastGuard++;
              if (res.status === 400) {
                const parsed = JSON.parse(text) as { error?: { param?: unknown; message?: unknown } };
                if (!namesAField(parsed.error)) throw new Error(`${where} → 400 without a field: ${text.slice(0, 400)}`);
              }
            },
          ),
          { numRuns: FUZZ.runs * 2, seed: FUZZ.seed },
        );
        slowest.push({ where: `${t.method} ${t.pattern}`, ms: performance.now() - started });
      }
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
    // Most requests must reach the handlers; a run refused at the guard would prove nothing.
    expect(pastGuard / cases).toBeGreaterThan(0.3);
  }, 600_000);
});
