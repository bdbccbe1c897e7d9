import { QueryClient, type FetchQueryOptions } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { settleRunningJobs } from "@/lib/server/batches/runner";
import { sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnBundled, type DashboardOnBundled } from "@/lib/test/dashboard-on-bundled";
import { routeFetch } from "./route-fetch";
import { syncTemplates } from "@/service/lib/template-files";
import { apiKeyMutations, apiKeysQuery } from "@/lib/queries/api-keys";
import { batchMutations, jobQuery, jobRowsQuery } from "@/lib/queries/batches";
import { composeMutations } from "@/lib/queries/compose";
import { contactMutations, contactQuery, contactSearchQuery } from "@/lib/queries/contacts";
import { domainCheckQuery, domainMutations, domainQuery, domainsQuery } from "@/lib/queries/domains";
import { streamStatusQuery } from "@/lib/queries/event-stream";
import { healthQuery } from "@/lib/queries/health";
import { activeAlertsQuery, alertMutations, alertsQuery, deliverabilityQuery } from "@/lib/queries/insight";
import { messageDetailQuery, messageMutations } from "@/lib/queries/messages";
import { overviewQuery } from "@/lib/queries/overview";
import { presendMutations, presendQuery } from "@/lib/queries/presend";
import { projectMutations, projectsQuery } from "@/lib/queries/projects";
import { recipientMutations } from "@/lib/queries/recipients";
import { suppressionMutations, suppressionsQuery } from "@/lib/queries/suppressions";
import { previewQuery, renderQuery, samplesQuery, templateMutations, templateQuery, templatesQuery } from "@/lib/queries/templates";
import { userMutations, usersQuery } from "@/lib/queries/users";
import { webhookMutations, webhooksQuery } from "@/lib/queries/webhooks";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Every client call of lib/queries against the real answer of its route: the routes run here
 * (./route-fetch.ts) on the bundled service, and each call parses with the schema the
 * route's output is typed by — a schema stricter than its route's answer fails here, as it
 * would fail the screen.
 */
let t: DashboardOnBundled;
let dns: FakeDnsServer;
let alpha: Project;
let cookie: string;
let restore: () => void;
const PASSWORD = "correct horse battery staple";
const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
// The options of each query as it builds them; fetchQuery runs its queryFn the way a screen does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fetchQuery = <T,>(options: FetchQueryOptions<T, Error, T, any>) => client.fetchQuery({ ...options, staleTime: 0 });

beforeAll(async () => {
  dns = await startFakeDnsServer({});
  t = await startDashboardOnBundled();
  t.env({ DNS_RESOLVER: dns.address });
  await t.service.verifiedDomain("alpha", "alpha.test");
  await syncTemplates(t.service.svc.db);
  alpha = await t.register("alpha");
  const admin = await createUser(createUserRequest.parse({ email: "ada@alpha.test", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR);
  cookie = await sessionCookie(admin.user.id);
  ({ restore } = routeFetch({ cookie: () => cookie, origin: new URL(t.ingest.url).origin }));
}, 120_000);
afterAll(async () => {
  restore?.();
  client.clear();
  await t?.close();
  await dns?.close();
});

describe("every client call parses its route's real answer", () => {
  it("messages: send, detail, inbound, reply, event stream, overview, deliverability", async () => {
    const sent = await composeMutations.send("alpha", { from: { email: "shop@alpha.test" }, to: [{ email: "reader@example.com" }], subject: "Hello", text: "Hi there" }, "answers-send-1");
    expect(sent.id).toEqual(expect.any(String));
    await t.indexed();
    const detail = await fetchQuery(messageDetailQuery("alpha", sent.id));
    expect(detail.message.id).toBe(sent.id);
    expect(detail.message.status).toBe("delivered");

    const inbound = await messageMutations.simulate("alpha", { from: "customer@example.com", to: "support@alpha.test", subject: "Question", text: "Where is my order?" });
    expect(inbound.id).toEqual(expect.any(String));
    const reply = await messageMutations.reply("alpha", inbound.id!, { text: "On its way.", idempotencyKey: "answers-reply-1" });
    expect(reply.id).toEqual(expect.any(String));
    expect((await messageMutations.connectStream("alpha")).connected).toBe(true);
    expect((await fetchQuery(streamStatusQuery("alpha"))).connected).toBe(true);

    const overview = await fetchQuery(overviewQuery("alpha", "24h"));
    expect(overview.counts["24h"].sent).toBeGreaterThanOrEqual(1);
    const deliverability = await fetchQuery(deliverabilityQuery("alpha", "7d"));
    expect(deliverability.providers.length).toBeGreaterThan(0);
    expect((await fetchQuery(healthQuery())).state).toEqual(expect.stringMatching(/^(up|slow)$/));
  });

  it("alerts: the view, the banner, saving settings with a new webhook, rotating its secret", async () => {
    const view = await fetchQuery(alertsQuery("alpha"));
    expect(view.settings.hasWebhookSecret).toBe(false);
    expect((await fetchQuery(activeAlertsQuery("alpha"))).active).toEqual([]);
    const saved = await alertMutations.saveSettings("alpha", { bounceWarning: 2, bounceLimit: 4, complaintWarning: 0.08, complaintLimit: 0.1, webhookUrl: "https://hooks.example.com/alerts" });
    expect(saved.webhookSecret).toEqual(expect.any(String));
    expect((await alertMutations.rotateWebhookSecret("alpha")).webhookSecret).toEqual(expect.any(String));
  });

  it("domains: list, detail, live check, add", async () => {
    const list = await fetchQuery(domainsQuery("alpha", null, null));
    const domain = list.data.find((d) => d.domain === "alpha.test")!;
    expect(domain).toBeDefined();
    expect((await fetchQuery(domainQuery("alpha", domain.id))).domain.id).toBe(domain.id);
    const check = await fetchQuery(domainCheckQuery("alpha", domain.id));
    expect(check.records.length).toBeGreaterThan(0);
    expect((await domainMutations.add("alpha", "news.alpha-two.test")).domain).toBe("news.alpha-two.test");
  });

  it("contacts: create, one, look-up, resubscribe, search", async () => {
    const created = await contactMutations.create("alpha", { email: "lee@example.com", firstName: "Lee", subscribed: false });
    expect((await fetchQuery(contactQuery("alpha", created.id))).email).toBe("lee@example.com");
    expect((await contactMutations.lookup("alpha", { email: "lee@example.com" })).id).toBe(created.id);
    expect((await contactMutations.resubscribe("alpha", created.id, "asked us by phone")).subscribed).toBe(true);
    const found = await fetchQuery(contactSearchQuery("alpha", "lee", 1));
    expect(found.data.map((c) => c.id)).toContain(created.id);
  });

  it("batches and contact imports: check, start, job, rows, retry", async () => {
    const file = { csv: "email,name\nann@example.com,Ann\nnot-an-address,Bob\n", fileName: "list.csv", mapping: { email: "email", name: "name" } };
    const content = { from: { email: "shop@alpha.test" }, subject: "News", text: "Hello" };
    const check = await batchMutations.check("alpha", { ...file, content });
    expect(check.summary).toMatchObject({ total: 2, toSend: 1, invalid: 1 });
    expect(check.problems).toEqual([expect.objectContaining({ row: 3, email: "not-an-address", status: "invalid" })]);
    const { id } = await batchMutations.start("alpha", { ...file, content, confirmCount: 1 });
    await settleRunningJobs();
    const job = await fetchQuery(jobQuery("alpha", id));
    expect(job.status).toBe("done");
    expect(job.counts.sent).toBe(1);
    const rows = await fetchQuery(jobRowsQuery("alpha", id, null, null, false));
    expect(rows.data.map((r) => r.status).sort()).toEqual(["invalid", "sent"]);
    expect((await batchMutations.retry("alpha", id)).retried).toBe(0);

    const imported = await batchMutations.importContacts("alpha", { ...file, subscribed: true });
    await settleRunningJobs();
    const importJob = await fetchQuery(jobQuery("alpha", imported.id, "contacts"));
    expect(importJob.status).toBe("done");
    expect(importJob.kind).toBe("contacts");
    expect((await fetchQuery(jobRowsQuery("alpha", imported.id, null, null, false, "contacts"))).data).toHaveLength(2);
  });

  it("templates: list, one, preview, render, samples, test send", async () => {
    const page = await fetchQuery(templatesQuery("alpha", null));
    const welcome = page.data.find((x) => x.name === "Welcome")!;
    expect(welcome).toBeDefined();
    expect((await fetchQuery(templateQuery("alpha", welcome.id))).id).toBe(welcome.id);
    expect((await fetchQuery(previewQuery("alpha", { subject: "Hi {{name}}", text: "x", data: { name: "Ann" } }))).subject).toBe("Hi Ann");
    expect((await fetchQuery(renderQuery("alpha", welcome.id, { firstName: "Ann", product: "Shop" }))).subject).toContain("Ann");
    const sample = await templateMutations.saveSample("alpha", welcome.id, { name: "long name", data: { firstName: "Bartholomew" } });
    expect((await fetchQuery(samplesQuery("alpha", welcome.id))).map((s) => s.id)).toContain(sample.id);
    await expect(templateMutations.deleteSample("alpha", welcome.id, sample.id)).resolves.toBeUndefined();
    const test = await templateMutations.testSend("alpha", welcome.id, { subject: "Test", text: "Hello" }, "answers-test-1");
    expect(test.id).toEqual(expect.any(String));
  });

  it("presend checks and link checks", async () => {
    const result = await fetchQuery(presendQuery("alpha", { subject: "Hello", text: "Visit https://example.com", from: "shop@alpha.test" }));
    expect(Array.isArray(result.findings)).toBe(true);
    const links = await presendMutations.checkLinks("alpha", ["http://127.0.0.1:9/"]);
    expect(links.results).toHaveLength(1);
  });

  it("suppressions, webhooks, API keys, erasure", async () => {
    expect((await suppressionMutations.add("alpha", { email: "gone@example.com" })).email).toBe("gone@example.com");
    const suppressions = await fetchQuery(suppressionsQuery("alpha", null));
    expect(suppressions.data.find((s) => s.email === "gone@example.com")).toMatchObject({ linkedMessageId: null });

    const hook = await webhookMutations.create("alpha", { url: "https://hooks.example.com/mail", eventTypes: ["delivery"] });
    expect(hook.signingSecret).toEqual(expect.any(String));
    expect((await fetchQuery(webhooksQuery("alpha", null))).data.map((w) => w.id)).toContain(hook.id);
    await expect(webhookMutations.remove("alpha", hook.id)).resolves.toBeUndefined();

    const key = await apiKeyMutations.create("alpha", { name: "ci", scopes: ["emails:send"] });
    expect(key.secret).toEqual(expect.any(String));
    expect((await fetchQuery(apiKeysQuery("alpha"))).data.map((k) => k.id)).toContain(key.id);
    expect((await apiKeyMutations.revoke("alpha", key.id)).revokedAt).toEqual(expect.any(String));

    const erased = await recipientMutations.erase("alpha", "reader@example.com");
    expect(erased.messagesDeleted + erased.messagesStripped).toBeGreaterThanOrEqual(1);
  });

  it("admin: users and projects", async () => {
    const created = await userMutations.create({ email: "bo@alpha.test", role: "support", allProjects: true });
    expect(created.password).toEqual(expect.any(String));
    expect((await fetchQuery(usersQuery())).map((u) => u.id)).toContain(created.user.id);
    expect((await userMutations.update(created.user.id, { name: "Bo" })).name).toBe("Bo");
    expect((await userMutations.setProjects(created.user.id, { allProjects: false, projectIds: [alpha.id] })).projectIds).toEqual([alpha.id]);
    expect((await userMutations.resetPassword(created.user.id)).password).toEqual(expect.any(String));
    expect((await userMutations.endSessions(created.user.id)).ended).toBe(0);
    expect((await userMutations.reconfirm(PASSWORD)).confirmedAt).toEqual(expect.any(String));

    const beta = await projectMutations.register({ externalId: "beta", name: "Beta" });
    expect(beta.externalId).toBe("beta");
    expect((await projectMutations.rename(beta.id, { name: "Beta shop" })).name).toBe("Beta shop");
    expect((await fetchQuery(projectsQuery())).map((p) => p.externalId)).toEqual(expect.arrayContaining(["alpha", "beta"]));
    await expect(projectMutations.remove(beta.id)).resolves.toBeUndefined();
  });
});
