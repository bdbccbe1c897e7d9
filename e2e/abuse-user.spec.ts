import { randomBytes } from "node:crypto";
import { LINK_CHECK_CONCURRENCY } from "../lib/schemas/presend";
import { expect, test } from "./fixtures";
import { call, signInOver } from "./helpers/abuse-http";
import { ingestPath, serviceEvent, signed } from "./helpers/abuse-ingest";
import { slowLinks, tricklingSpamd } from "./helpers/abuse-servers";
import { signedInUser, startAbuseTarget, targetUser, type AbuseTarget } from "./helpers/abuse-target";
import { NAMES_A_LIMIT, underAttack } from "./helpers/abuse-watch";
import { send, unique } from "./support-helpers";
import { budget } from "./support/budget";

/**
 * Issue 25, the abuse suite, part two: what a signed-in user, a stranger at the sign-in page
 * or a foreign page can make the dashboard do (findings 2, 4, 5, 6, 8, 9, 12, 13), replayed
 * against the built dashboard in front of the running local service, with a spamd that
 * trickles and links that answer slowly on 127.0.0.1. Each attack is refused or bounded, the
 * process survives, and /api/health answers within 1 s at p99 throughout.
 *
 * @e2e-alone: it measures latency (the dashboard's, not that of browser lanes beside it), so
 * the harness runs it after everything else of the run has ended (scripts/lib/e2e-lanes.ts).
 */

let target: AbuseTarget;
let spamd: Awaited<ReturnType<typeof tricklingSpamd>>;
let links: Awaited<ReturnType<typeof slowLinks>>;
test.beforeAll(async () => {
  test.setTimeout(budget(120_000));
  spamd = await tricklingSpamd();
  links = await slowLinks(1_500);
  target = await startAbuseTarget({
    SPAMD_HOST: "127.0.0.1",
    SPAMD_PORT: String(spamd.port),
    SPAMD_TIMEOUT_MS: "3000",
    // The slow links and the alert webhook's receiver listen here.
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
  });
});
test.afterAll(async () => {
  await target?.dispose();
  await spamd?.close();
  await links?.close();
});

const p = () => `/api/p/${encodeURIComponent(target.project)}`;
const found = async (q: string) => ((await target.admin.api("GET", `${p()}/messages?q=${encodeURIComponent(q)}`)).json as { data?: unknown[] } | null)?.data?.length ?? -1;

test("finding 2: a pre-send check of 5 MB of html is refused or bounded, and nobody else waits", async () => {
  test.setTimeout(budget(60_000));
  // Many siblings, each with a finding: every finding's element path walked all of them.
  const unit = '<div style="display:flex">x</div>';
  const html = unit.repeat(Math.ceil((5 * 1024 * 1024) / unit.length));
  const answer = await underAttack(target, "5 MB html check", () =>
    target.admin.api("POST", `${p()}/checks`, { draft: { subject: "Big", html }, spam: false }, {}, 20_000).catch((e: Error) => ({ status: 0, text: e.message, ms: 20_000 })),
  );
  console.log(`5 MB html check: HTTP ${answer.status} after ${Math.round(answer.ms)} ms: ${answer.text.slice(0, 200)}`);
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(200);
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  if (answer.status >= 400) expect(answer.text).toMatch(NAMES_A_LIMIT);
});

test("finding 8: a spamd that trickles its answer cannot hold a check past SPAMD_TIMEOUT_MS", async () => {
  test.setTimeout(budget(60_000));
  const answer = await underAttack(target, "trickling spamd", () =>
    target.admin.api("POST", `${p()}/checks`, { draft: { subject: "Hello", html: "<p>Hello there</p>", text: "Hello there" }, spam: true }, {}, 15_000).catch((e: Error) => ({ status: 0, text: e.message, ms: 15_000 })),
  );
  console.log(`check with a trickling spamd (SPAMD_TIMEOUT_MS=3000): HTTP ${answer.status} after ${Math.round(answer.ms)} ms`);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  // The 3 s deadline, and some room for a busy machine; the idle timeout took 40 s and more.
  expect(answer.ms).toBeLessThan(6_000);
});

test("finding 9: one user's parallel link checks are refused past the per-user bound, and the outbound requests stay bounded", async () => {
  test.setTimeout(budget(60_000));
  const support = await signedInUser(target, "support", "links");
  links.reset();
  const urls = Array.from({ length: 2 * LINK_CHECK_CONCURRENCY }, (_, i) => `${links.base}/slow/${i}`);
  const answers = await underAttack(target, "8 parallel link checks", () =>
    Promise.all(Array.from({ length: 8 }, () => support.api("POST", `${p()}/checks/links`, { urls }, {}, 30_000).catch((e: Error) => ({ status: 0, text: e.message, headers: {} as Record<string, unknown>, ms: 0 })))),
  );
  console.log(`8 parallel link checks of ${urls.length} links: ${answers.map((a) => a.status).join(", ")}; the link server saw ${links.seen.total} requests, at most ${links.seen.maxOpen} open at once`);
  const refused = answers.filter((a) => a.status === 429);
  expect(answers.filter((a) => a.status !== 200 && a.status !== 429), "every check is done or refused with 429").toEqual([]);
  expect(refused.length, "checks past the per-user bound are refused").toBeGreaterThan(0);
  for (const a of refused) {
    expect.soft(a.text).toMatch(NAMES_A_LIMIT);
    expect.soft(String(a.headers["retry-after"] ?? ""), "a 429 says when to retry").toMatch(/^\d+$/);
  }
  // Unbounded, the eight checks kept 8 × 6 requests open at once; now only the checks let
  // through reach out, each a few links at a time (a HEAD, and a GET where HEAD is refused).
  const done = answers.filter((a) => a.status === 200).length;
  expect(links.seen.maxOpen, "links open at once").toBeLessThan(8 * LINK_CHECK_CONCURRENCY);
  expect(links.seen.maxOpen, "links open at once").toBeLessThanOrEqual(done * LINK_CHECK_CONCURRENCY);
  expect(links.seen.total, "requests to the links").toBeLessThanOrEqual(done * urls.length * 2);
});

test("finding 5: the alert webhook's credentials and token are not shown to a support user", async () => {
  test.setTimeout(budget(60_000));
  const tag = unique();
  const secret = `tok-${randomBytes(6).toString("hex")}`;
  const hook = `${links.base.replace("http://", "http://hookuser:hookpass@")}/hook?token=${secret}`;
  const saved = await target.admin.api("PUT", `${p()}/alerts/settings`, { bounceWarning: 2, bounceLimit: 4, complaintWarning: 0.08, complaintLimit: 0.1, webhookUrl: hook });
  expect(saved.status, saved.text).toBe(200);
  // Bounced mail raises the bounce alert (ALERT_MIN_VOLUME=1 here), which is sent to the webhook.
  const events = [0, 1, 2].flatMap((i) => {
    const id = `bounced-${tag}-${i}`;
    target.invented.set(id, { id, to: `bounced+${tag}@example.com`, subject: `Abuse bounce ${tag}`, status: "bounced", events: ["sent", "bounce"] });
    return [serviceEvent("sent", id, { to: `bounced+${tag}@example.com`, status: "sent" }), serviceEvent("bounce", id, { to: `bounced+${tag}@example.com`, status: "bounced" })];
  });
  const d = signed(target.secret, events);
  const delivered = await call(target.baseURL, "POST", ingestPath(target.project), { body: d.body, headers: d.headers });
  expect(delivered.status, delivered.text).toBeLessThan(300);
  type History = { history: { deliveries: { channel: string; target: string }[] }[] };
  await expect
    .poll(async () => ((await target.admin.api("GET", `${p()}/alerts`)).json as History).history.some((h) => h.deliveries.some((x) => x.channel === "webhook")), { message: "the alert was sent to the webhook", timeout: budget(30_000) })
    .toBe(true);

  const support = await signedInUser(target, "support", "alerts-reader");
  const read = await underAttack(target, "support reads the alerts", () => support.api("GET", `${p()}/alerts`));
  expect(read.status).toBe(200);
  const shown = ((read.json as History).history.flatMap((h) => h.deliveries.filter((x) => x.channel === "webhook").map((x) => x.target)));
  console.log(`the support user sees the alert webhook as ${JSON.stringify([...new Set(shown)])}`);
  expect(shown.length).toBeGreaterThan(0);
  expect.soft(shown.join(" "), "the webhook as the history shows it").not.toMatch(/hookuser|hookpass/);
  expect.soft(read.text.includes("hookpass"), "the password anywhere in the answer").toBe(false);
  expect.soft(read.text.includes(secret), "the token anywhere in the answer").toBe(false);
});

test("finding 6: wrong passwords from one address do not lock the owner out from another, and make few audit entries", async () => {
  test.setTimeout(budget(60_000));
  const user = await targetUser(target, "support", "lockout");
  const tries = 25;
  const codes = await underAttack(target, "25 wrong passwords", async () => {
    const seen: (string | null)[] = [];
    const until = Date.now() + 30_000;
    for (let i = 0; i < tries && Date.now() < until; i++) seen.push((await signInOver(target.baseURL, { email: user.email, password: `wrong-${i}` }, "127.0.0.2")).code);
    return seen;
  });
  console.log(`${codes.length} wrong passwords from 127.0.0.2: ${[...new Set(codes)].join(", ")}`);
  const owner = await signInOver(target.baseURL, user, "127.0.0.3");
  expect(owner.ok, `the owner from another address is let in (code ${owner.code})`).toBe(true);

  type Audit = { data: { outcome: string; detail: Record<string, unknown> }[] };
  const audit = (await target.admin.api("GET", `/api/admin/audit?action=auth.sign_in&q=${encodeURIComponent(user.email)}&limit=100`)).json as Audit;
  const failures = audit.data.filter((e) => e.outcome === "failure");
  console.log(`audit entries of failed sign-ins: ${failures.length} for ${codes.length} tries`);
  expect(failures.length, "a flood of throttled tries is one entry with a count, not one each").toBeLessThanOrEqual(10);
});

test("finding 12: a write with a foreign Origin is refused even with a matching X-Forwarded-Host", async () => {
  const email = `forwarded-${unique()}@e2e.test`;
  const answer = await underAttack(target, "forged forwarded host", () =>
    target.admin.api("POST", "/api/admin/users", { email, name: "Mallory", role: "admin", password: "forwarded-host-password-1", allProjects: true }, { Origin: "http://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http" }),
  );
  expect(answer.status, answer.text).toBe(403);
  expect((await target.admin.api("GET", "/api/admin/users")).text).not.toContain(email);
});

test("finding 13: an attachment download keeps its sandboxing Content-Security-Policy", async () => {
  const id = await send({ to: "delivered@example.com", subject: `Abuse attachment ${unique()}`, attachments: [{ filename: "page.html", content: Buffer.from("<script>alert(1)</script>").toString("base64"), contentType: "text/html" }] });
  type Detail = { attachments: { downloadPath: string }[] };
  let path = "";
  await expect
    .poll(async () => (path = ((await target.admin.api("GET", `${p()}/messages/${encodeURIComponent(id)}/detail`)).json as Detail | null)?.attachments?.[0]?.downloadPath ?? ""), { timeout: budget(20_000) })
    .not.toBe("");
  const answer = await underAttack(target, "attachment download", () => target.admin.api("GET", path));
  expect(answer.status).toBe(200);
  const csp = String(answer.headers["content-security-policy"] ?? "");
  expect(csp).toContain("sandbox");
  expect(csp).toContain("default-src 'none'");
});

test("finding 4: after an erasure, neither kept messages nor later reads of the service bring the address back into search", async () => {
  test.setTimeout(budget(60_000));
  const tag = unique();
  const address = `erase+${tag}@example.com`;
  const erasedId = await send({ to: address, subject: `Abuse erasure ${tag}` });
  const keptId = await send({ to: `kept+${tag}@example.com`, subject: `About ${address}` });
  await expect.poll(() => found(`kept+${tag}@example.com`), { timeout: budget(20_000) }).toBe(1);
  await expect.poll(() => found(address), { timeout: budget(20_000) }).toBeGreaterThanOrEqual(1);
  expect(await found(`erase+${tag}`), "the kept message's subject is found before the erasure").toBe(1);

  const erased = await target.admin.api("POST", `${p()}/recipients/${encodeURIComponent(address)}/erase`, { confirmEmail: address });
  expect(erased.status, erased.text).toBe(200);
  await underAttack(target, "reads after an erasure", async () => {
    // Someone opens both messages by their links: each is read from the service again.
    for (const id of [erasedId, keptId]) await target.admin.api("GET", `${p()}/messages/${encodeURIComponent(id)}/detail`);
  });
  await new Promise((r) => setTimeout(r, 2_000));
  // The address is matched among recipients; its local part, in subjects (the kept message's).
  expect.soft(await found(address), `a search for ${address} after the erasure`).toBe(0);
  expect.soft(await found(`erase+${tag}`), `a search for erase+${tag} after the erasure`).toBe(0);
});
