import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { rowsOf } from "../contract/db-rows";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "./app";
import { testConfig } from "./config";
import type { Deps } from "./context";
import { openTestDatabase } from "./db/test-db";
import { accounts, contacts, demoHistories, domains, messages, projects, suppressions, templates } from "./db/schema";
import { forgetCachedKeys } from "./lib/auth";
import { seedIfNew } from "./seed";
import { DEMO_REPLAY_JOB } from "./seed/replay";
import { tempDir } from "./test/harness";
import { jobHandlers } from "./worker/handlers";
import { startWorker } from "./worker/queue";

const dir = tempDir("svc-seed-");
afterAll(() => dir.remove());

async function fresh(overrides: Parameters<typeof testConfig>[0] = {}) {
  forgetCachedKeys();
  const database = await openTestDatabase();
  const deps: Deps = { db: database.db, config: testConfig({ SERVICE_SEED: "auto", SERVICE_SEED_HISTORY: "off", SERVICE_WEBHOOK_ALLOW_PRIVATE: true, ...overrides }), kick: () => {} };
  return { deps, database };
}

const total = async (deps: Deps, table: typeof accounts | typeof projects | typeof domains | typeof templates | typeof contacts | typeof suppressions | typeof messages) =>
  (await deps.db.select({ n: count() }).from(table))[0].n;

describe("seedIfNew", () => {
  const envFile = join(dir.dir, "app", ".env.local");
  let ctx: Awaited<ReturnType<typeof fresh>>;
  let result: Awaited<ReturnType<typeof seedIfNew>>;
  beforeAll(async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    ctx = await fresh({ SERVICE_ENV_FILE: envFile });
    await import("node:fs").then((fs) => fs.mkdirSync(join(dir.dir, "app")));
    writeFileSync(envFile, "AUTH_SECRET=keep-me\nSERVICE_URL=http://127.0.0.1:9999\n");
    result = await seedIfNew(ctx.deps, "http://127.0.0.1:4010");
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await ctx.database.close();
  });

  it("creates the demo account, its two projects and a verified sandbox domain each", async () => {
    expect(result).toMatchObject({ seeded: true, projects: ["acme-production", "acme-staging"] });
    expect(await total(ctx.deps, accounts)).toBe(1);
    const rows = await ctx.deps.db.select().from(projects);
    expect(rows.map((p) => [p.externalId, p.name]).sort()).toEqual([["acme-production", "Acme (production)"], ["acme-staging", "Acme (staging)"]]);
    const doms = await ctx.deps.db.select().from(domains);
    expect(doms.map((d) => d.domain).sort()).toEqual(["acme.test", "staging.acme.test"]);
    for (const d of doms) {
      expect(d.status).toBe("verified");
      expect(d.receivingEnabled).toBe(true);
      expect(d.records.every((r) => r.verified)).toBe(true);
    }
  });

  it("loads the templates into both projects, and contacts and suppressions through the routes", async () => {
    expect(await total(ctx.deps, templates)).toBe(6);
    const people = await ctx.deps.db.select().from(contacts);
    expect(people).toHaveLength(5);
    expect(people.filter((c) => !c.subscribed).map((c) => c.email)).toEqual(["linus@example.com"]);
    const reasons = (await ctx.deps.db.select().from(suppressions)).map((s) => s.reason);
    expect(reasons).toEqual(expect.arrayContaining(["bounce", "complaint", "manual"]));
  });

  it("creates an account-wide full-access key that works for both projects", async () => {
    if (!result.seeded) throw new Error("not seeded");
    const app = createApp(ctx.deps);
    for (const project of result.projects) {
      const res = await app.request("/v1/templates", { headers: { Authorization: `Bearer ${result.apiKey}`, "X-Service-Product": project } });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toHaveLength(3);
    }
  });

  it("sends demo messages through the real pipeline, and they reach the end of their timelines", async () => {
    if (!result.seeded) throw new Error("not seeded");
    expect(result.messages).toBe(7);
    expect(await total(ctx.deps, messages)).toBe(7);
    const worker = startWorker(ctx.deps, jobHandlers);
    try {
      const app = createApp(ctx.deps);
      const rows = await ctx.deps.db.select({ id: messages.id }).from(messages);
      const deadline = Date.now() + 10_000;
      let statuses: string[] = [];
      do {
        await new Promise((r) => setTimeout(r, 100));
        statuses = await Promise.all(rows.map(async ({ id }) => {
          const res = await app.request(`/v1/emails/${id}`, { headers: { Authorization: `Bearer ${result.seeded ? result.apiKey : ""}` } });
          return (await res.json()).status as string;
        }));
        // "delivered" comes before a complaint: wait for every outcome, not just for the first final-looking one.
      } while ((statuses.some((s) => ["queued", "sending", "sent"].includes(s)) || !["delivered", "bounced", "complained"].every((s) => statuses.includes(s))) && Date.now() < deadline);
      expect(statuses).toEqual(expect.arrayContaining(["delivered", "bounced", "complained"]));
      expect(statuses.filter((s) => ["queued", "sending", "sent"].includes(s))).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("with SERVICE_SEED_HISTORY=off seeds no month and gives the first endpoint nothing of the past", async () => {
    if (!result.seeded) throw new Error("not seeded");
    expect(result.history).toBeNull();
    expect(await ctx.deps.db.select().from(demoHistories)).toEqual([]);
    const res = await createApp(ctx.deps).request("/v1/webhooks", {
      method: "POST",
      headers: { Authorization: `Bearer ${result.apiKey}`, "X-Service-Product": "acme-production", "Content-Type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/hook", eventTypes: ["accepted", "delivery"] }),
    });
    expect(res.status).toBe(201);
    const jobs = rowsOf<{ n: number }>(await ctx.deps.db.execute(sql`select count(*)::int as n from jobs where kind = ${DEMO_REPLAY_JOB}`));
    expect(Number(jobs[0].n)).toBe(0);
  });

  it("writes the env file without overwriting a value already set, keeping other lines", () => {
    if (!result.seeded) throw new Error("not seeded");
    expect(result.env).toMatchObject({ written: ["SERVICE_API_KEY", "SERVICE_PROJECTS"], kept: ["SERVICE_URL"] });
    expect(readFileSync(envFile, "utf8")).toMatch(
      new RegExp(`^AUTH_SECRET=keep-me\nSERVICE_URL=http://127.0.0.1:9999\nSERVICE_API_KEY=${result.apiKey}\nSERVICE_PROJECTS=acme-production,acme-staging\n# New values [^\n]*\n# SERVICE_URL=http://127.0.0.1:4010\n$`),
    );
    // The file holds the key: owner-only, although it existed (0644) before the seed.
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
  });

  it("seeds once: a second run changes nothing", async () => {
    const before = readFileSync(envFile, "utf8");
    const again = await seedIfNew(ctx.deps, "http://127.0.0.1:4010");
    expect(again).toEqual({ seeded: false, reason: "the database already has an account" });
    expect(await total(ctx.deps, accounts)).toBe(1);
    expect(await total(ctx.deps, projects)).toBe(2);
    expect(await total(ctx.deps, messages)).toBe(7);
    expect(readFileSync(envFile, "utf8")).toBe(before);
  });
});

describe("seedIfNew, other cases", () => {
  it("never prints a new key when the env file already has one: it is kept in the file, commented out", async () => {
    const envFile = join(dir.dir, "kept", ".env.local");
    await import("node:fs").then((fs) => fs.mkdirSync(join(dir.dir, "kept")));
    writeFileSync(envFile, "SERVICE_URL=http://127.0.0.1:4010\nSERVICE_API_KEY=sk_old_key_of_a_deleted_database\n", { mode: 0o644 });
    const { deps, database } = await fresh({ SERVICE_ENV_FILE: envFile });
    const printed: string[] = [];
    const capture = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
    const spies = (["log", "warn", "error", "info"] as const).map((m) => vi.spyOn(console, m).mockImplementation(capture));
    try {
      const result = await seedIfNew(deps, "http://127.0.0.1:4010");
      if (!result.seeded) throw new Error("not seeded");
      expect(result.env.kept).toEqual(["SERVICE_URL", "SERVICE_API_KEY"]);
      const output = printed.join("\n");
      expect(output).toContain("kept SERVICE_URL, SERVICE_API_KEY");
      // Not the key, nor any 6-character piece of it.
      for (let i = 0; i + 6 <= result.apiKey.length; i++) expect(output).not.toContain(result.apiKey.slice(i, i + 6));
      const file = readFileSync(envFile, "utf8");
      expect(file).toContain("SERVICE_API_KEY=sk_old_key_of_a_deleted_database\n");
      expect(file).toContain(`# SERVICE_API_KEY=${result.apiKey}\n`);
      expect(statSync(envFile).mode & 0o777).toBe(0o600);
    } finally {
      for (const spy of spies) spy.mockRestore();
      await database.close();
    }
  });

  it("does nothing with SERVICE_SEED=off", async () => {
    const { deps, database } = await fresh({ SERVICE_SEED: "off", SERVICE_ENV_FILE: join(dir.dir, "off.env") });
    try {
      expect(await seedIfNew(deps, "http://x")).toEqual({ seeded: false, reason: "SERVICE_SEED=off" });
      expect(await total(deps, accounts)).toBe(0);
    } finally {
      await database.close();
    }
  });

  it("completes when the routes it calls fail, and creates the env file", async () => {
    const envFile = join(dir.dir, "new", ".env.local");
    const { deps, database } = await fresh({ SERVICE_ENV_FILE: envFile });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const failing = async () => new Response(JSON.stringify({ error: { message: "No route", code: "not_found", param: null } }), { status: 404 });
      const result = await seedIfNew(deps, "http://127.0.0.1:4010", { request: failing });
      expect(result).toMatchObject({ seeded: true, messages: 0 });
      expect(warn).toHaveBeenCalled();
      expect(await total(deps, templates)).toBe(6);
      expect(readFileSync(envFile, "utf8")).toMatch(/^SERVICE_URL=http:\/\/127\.0\.0\.1:4010\nSERVICE_API_KEY=sk_\S+\nSERVICE_PROJECTS=acme-production,acme-staging\n$/);
      expect(log.mock.calls.flat().join("\n")).toContain(`wrote SERVICE_URL, SERVICE_API_KEY, SERVICE_PROJECTS to ${envFile}`);
    } finally {
      warn.mockRestore();
      log.mockRestore();
      await database.close();
    }
  });
});
