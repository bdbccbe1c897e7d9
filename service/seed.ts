import { createApp } from "./app";
import type { Deps } from "./context";
import { accounts, domains } from "./db/schema";
import { createAccount, createApiKey, createProject } from "./lib/accounts";
import { receivingRecords, sendingRecords } from "./lib/domain-records";
import { appendEnvComment, mergeEnvFile } from "./lib/env-file";
import { newId } from "./lib/ids";
import { loadTemplateFiles, syncTemplates } from "./lib/template-files";
import { PROFILES } from "./seed/history";
import { describeFigures, historyFigures } from "./seed/stats";
import { seedHistory } from "./seed/write";

/** In-process HTTP into the app, so seeded data goes through the real routes and pipeline. */
export type SeedRequest = (path: string, init: { method: string; project: string; body: unknown }) => Promise<Response>;

export type SeedResult =
  | { seeded: false; reason: string }
  | { seeded: true; apiKey: string; projects: string[]; messages: number; history: HistorySummary | null; env: { path: string; written: string[]; kept: string[] } };

export type HistorySummary = { messages: number; events: number; ms: number };

const PROJECTS = [
  { externalId: "acme-production", name: "Acme (production)", domain: "acme.test", fromName: "Acme", history: PROFILES.production },
  { externalId: "acme-staging", name: "Acme (staging)", domain: "staging.acme.test", fromName: "Acme (staging)", history: PROFILES.staging },
] as const;

const CONTACTS = [
  { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", metadata: { plan: "pro" } },
  { email: "grace@example.com", firstName: "Grace", lastName: "Hopper", metadata: { plan: "team", seats: 12 } },
  { email: "margaret@example.com", firstName: "Margaret", lastName: "Hamilton" },
  { email: "linus@example.com", firstName: "Linus", lastName: "Pauling", subscribed: false },
];

const SUPPRESSIONS = [
  { email: "old-address@example.com", reason: "bounce" },
  { email: "spam-reporter@example.com", reason: "complaint" },
  { email: "do-not-email@example.com", reason: "manual" },
];

/** Sandbox recipients choose each message's outcome, so the demo shows every kind of timeline. */
function demoEmails(domain: string) {
  const from = { email: `hello@${domain}`, name: "Acme" };
  return [
    { from, to: [{ email: "opened@example.com", name: "Ada Lovelace" }], templateId: "welcome", tags: [{ name: "category", value: "onboarding" }],
      data: { firstName: "Ada", product: "Acme", actionUrl: "https://acme.test/start" } },
    { from, to: [{ email: "clicked@example.com" }], templateId: "receipt",
      data: { customerName: "Grace Hopper", orderNumber: "A-1042", total: "$42.00",
        items: [{ name: "Notebook", quantity: 2, price: "$24.00" }, { name: "Pencil set", quantity: 1, price: "$18.00" }] } },
    { from, to: [{ email: "delivered@example.com" }], templateId: "password-reset",
      data: { firstName: "Margaret", product: "Acme", resetUrl: "https://acme.test/reset/abc123", expiresInMinutes: 30 } },
    { from, to: [{ email: "bounce@example.com" }], subject: "Your invoice is ready", html: "<p>Your invoice for May is attached to your account.</p>" },
    { from, to: [{ email: "complaint@example.com" }], subject: "Weekly digest", text: "Here is what happened this week at Acme." },
    { from, to: [{ email: "delayed@example.com" }], subject: "Shipping update", text: "Your order A-1042 has shipped." },
  ];
}

function inProcess(deps: Deps, apiKey: string): SeedRequest {
  const app = createApp(deps);
  return async (path, { method, project, body }) => app.request(path, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, "X-Service-Product": project, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** One seeding call that may fail without stopping the rest (e.g. a route not there yet). */
async function attempt(request: SeedRequest, path: string, project: string, body: unknown): Promise<boolean> {
  try {
    const res = await request(path, { method: "POST", project, body });
    if (res.ok) return true;
    console.warn(`[service] seed: POST ${path} (${project}) answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  } catch (error) {
    console.warn(`[service] seed: POST ${path} (${project}) failed: ${error instanceof Error ? error.message : error}`);
  }
  return false;
}

/**
 * On a new database (no account yet), seeds the demo account and writes the dashboard's
 * connection to SERVICE_ENV_FILE. Skipped with SERVICE_SEED=off. The account, projects,
 * verified sandbox domains, templates and key are one transaction, so a crash leaves
 * either nothing (and the next start seeds) or all of them.
 */
export async function seedIfNew(deps: Deps, serviceUrl: string, opts: { request?: SeedRequest; now?: Date } = {}): Promise<SeedResult> {
  const { db, config } = deps;
  if (config.SERVICE_SEED === "off") return { seeded: false, reason: "SERVICE_SEED=off" };
  const [existing] = await db.select({ id: accounts.id }).from(accounts).limit(1);
  if (existing) return { seeded: false, reason: "the database already has an account" };

  const files = loadTemplateFiles();
  const { secret, projectRows } = await db.transaction(async (tx) => {
    const account = await createAccount(tx, "Acme Inc. (demo)");
    const projectRows = [];
    for (const p of PROJECTS) {
      const project = await createProject(tx, account.id, p.externalId, p.name);
      const { records, dkimPrivateKey } = await sendingRecords(p.domain);
      await tx.insert(domains).values({
        id: newId("dom"), projectId: project.id, domain: p.domain, status: "verified",
        records: records.map((r) => ({ ...r, verified: true })),
        receivingEnabled: true, receivingRecords: receivingRecords(p.domain).map((r) => ({ ...r, verified: true })),
        dkimPrivateKey, lastCheckedAt: new Date(),
      });
      projectRows.push(project);
    }
    await syncTemplates(tx, files, projectRows.map((p) => p.id));
    const { secret } = await createApiKey(tx, { accountId: account.id, projectId: null, name: "Dashboard (demo seed)", scopes: ["full_access"] });
    return { secret, projectRows };
  });

  // The past first, so the messages sent below are the newest, as they would be.
  const history = config.SERVICE_SEED_HISTORY === "off" ? null : await seedHistories(deps, projectRows, opts.now ?? new Date());
  const request = opts.request ?? inProcess(deps, secret);
  const [production, staging] = PROJECTS;
  for (const c of CONTACTS) await attempt(request, "/v1/contacts", production.externalId, c);
  await attempt(request, "/v1/contacts", staging.externalId, { email: "qa@example.com", firstName: "Quinn", lastName: "Tester" });
  for (const s of SUPPRESSIONS) await attempt(request, "/v1/suppressions", production.externalId, s);
  let messages = 0;
  for (const email of demoEmails(production.domain)) if (await attempt(request, "/v1/emails", production.externalId, email)) messages++;
  const stagingMail = { from: { email: `qa@${staging.domain}`, name: "Acme staging" }, to: [{ email: "delivered@example.com" }], subject: "Staging smoke test", text: "It works." };
  if (await attempt(request, "/v1/emails", staging.externalId, stagingMail)) messages++;

  const projects = projectRows.map((p) => p.externalId);
  const env = mergeEnvFile(config.SERVICE_ENV_FILE, { SERVICE_URL: serviceUrl, SERVICE_API_KEY: secret, SERVICE_PROJECTS: projects.join(",") });
  console.log(`[service] seeded the demo account: projects ${projects.join(", ")}, ${files.length} templates, ${messages} messages`);
  if (env.written.length) console.log(`[service] wrote ${env.written.join(", ")} to ${env.path}`);
  if (env.kept.length) {
    // The new key is shown nowhere else: it goes into the (owner-only) file, commented out, not to the log.
    const fresh: Record<string, string> = { SERVICE_URL: serviceUrl, SERVICE_API_KEY: secret, SERVICE_PROJECTS: projects.join(",") };
    appendEnvComment(env.path, `New values from the local service's new database (${new Date().toISOString()}); to use them, replace the lines above`, Object.fromEntries(env.kept.map((k) => [k, fresh[k]])));
    console.log(`[service] kept ${env.kept.join(", ")} already set in ${env.path}; this new database's values were added to the end of that file as comments`);
  }
  return { seeded: true, apiKey: secret, projects, messages, history, env };
}

/**
 * A month of each project's mail, written into its own tables (service/seed/). A failure is
 * logged and leaves the base demo as it is.
 */
async function seedHistories(deps: Deps, projectRows: { id: string; externalId: string }[], now: Date): Promise<HistorySummary | null> {
  const started = performance.now();
  const summary: HistorySummary = { messages: 0, events: 0, ms: 0 };
  const lines: string[] = [];
  try {
    for (const p of PROJECTS) {
      const row = projectRows.find((r) => r.externalId === p.externalId)!;
      const plan = await seedHistory(deps.db, { id: row.id, externalId: p.externalId, domain: p.domain, fromName: p.fromName }, { now, profile: p.history });
      summary.messages += plan.messages.length;
      summary.events += plan.events.length;
      const figures = historyFigures(plan);
      lines.push(`${p.externalId}: ${figures.messages} messages, ${figures.events} events, ${figures.inbound} inbound, ${figures.threads} threads, ${figures.scheduled} scheduled`,
        ...describeFigures(figures).map((l) => `  ${l}`));
    }
  } catch (error) {
    console.error("[service] seeding the demo history failed; projects seeded before the failure keep theirs, the others have none", error);
    return null;
  }
  summary.ms = Math.round(performance.now() - started);
  console.log(`[service] seeded a 30-day demo history in ${(summary.ms / 1000).toFixed(1)} s: ${summary.messages} messages, ${summary.events} events`);
  for (const line of lines) console.log(`[service]   ${line}`);
  return summary;
}
