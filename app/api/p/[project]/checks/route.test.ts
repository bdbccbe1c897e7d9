import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { HOW_TO_ENABLE } from "@/lib/server/spam/score";
import { apiRequest, params, sessionCookie, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { createUser, setUserProjects } from "@/lib/server/users";
import { POST as LINKS } from "./links/route";
import { POST } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
let site: TestServer;
let support: string;
let marketer: string;
let limited: string;
/** What a /slow page waits for before it answers. */
let slowPages: Promise<void> = Promise.resolve();

beforeAll(async () => {
  site = await startHttpServer((req, res) => {
    if (req.url.startsWith("/slow")) void slowPages.then(() => res.writeHead(200).end());
    else res.writeHead(200).end();
  });
  // No spamd here: the spam part says how to enable it (spamd itself is tested in lib/server/spam).
  setTestEnv({ SPAMD_HOST: undefined });
  ({ dispose } = await useTestDb());
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false });
  const other = await registerProject({ externalId: "other" }, SYSTEM_ACTOR, { checkWithService: false });
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", allProjects: true }), SYSTEM_ACTOR)).user.id);
  const { user } = await createUser(createUserRequest.parse({ email: "l@example.com", role: "marketer" }), SYSTEM_ACTOR);
  await setUserProjects(user.id, { allProjects: false, projectIds: [other.id] }, SYSTEM_ACTOR);
  limited = await sessionCookie(user.id);
});
afterAll(async () => {
  await dispose();
  await site.close();
});

const check = async (body: unknown, cookie: string | null = marketer, project = "demo") =>
  POST(await apiRequest(`/api/p/${project}/checks`, { method: "POST", cookie: cookie ?? undefined, body }), params({ project }));
const links = async (body: unknown, cookie: string | null = marketer) =>
  LINKS(await apiRequest("/api/p/demo/checks/links", { method: "POST", cookie: cookie ?? undefined, body }), params({ project: "demo" }));

describe("POST /api/p/[project]/checks", () => {
  it("returns the findings, the links and the sizes of a draft, and how to enable SpamAssassin", async () => {
    const html = `<p>${"Plenty of words in this paragraph. ".repeat(3300)}</p>\n<a href="http://acme.test/x">x</a><img src="https://acme.test/a.png">`;
    const res = await check({ draft: { subject: "Hello", html, text: "Hi" } }, support);
    expect(res.status).toBe(200);
    const body = await res.json();
    const rules = body.findings.map((f: { rule: string }) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(["gmail-clip", "link-insecure", "image-alt", "image-size", "text-short"]));
    expect(body.findings.find((f: { rule: string }) => f.rule === "link-insecure").place).toMatchObject({ line: 2, column: 1 });
    expect(body.links).toEqual([expect.objectContaining({ url: "http://acme.test/x", host: "acme.test", kind: "web" })]);
    expect(body.sizes.htmlBytes).toBeGreaterThan(102 * 1024);
    expect(body.spam).toEqual({ unavailable: expect.stringMatching(/not configured/), howToEnable: HOW_TO_ENABLE });
  });

  it("leaves SpamAssassin out when not asked", async () => {
    const body = await (await check({ draft: { subject: "Hi", text: "Hello" }, spam: false })).json();
    expect(body).toEqual({ findings: [], links: [], sizes: expect.any(Object) });
  });

  it.each([
    ["no draft", {}, "draft"],
    ["a size that is not a number", { draft: { subject: "s", attachments: [{ filename: "a.pdf", size: "big" }] } }, "draft.attachments.0.size"],
    ["a sender that is not an address", { draft: { subject: "s", from: "nobody" } }, "draft.from"],
  ])("refuses %s with a 400 naming the field", async (_, body, param) => {
    const res = await check(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe(param);
  });

  it("refuses a body over the request-size limit with 413", async () => {
    const res = await check({ draft: { subject: "s", html: "x".repeat(21 * 1024 * 1024) } });
    expect(res.status).toBe(413);
  });

  it("refuses html over 1,000,000 characters with a 400 naming draft.html and the limit, before checking", async () => {
    const res = await check({ draft: { subject: "s", html: `<p>${"x".repeat(1_000_000)}</p>` } });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toMatchObject({ param: "draft.html", message: expect.stringContaining("at most 1,000,000 characters") });
  });

  it("runs one check at a time per user: a second one meanwhile is a 429 with Retry-After", async () => {
    const heavy = Array.from({ length: 4000 }, (_, i) => `<p style="margin:${i}px">w</p>`).join("\n");
    const first = check({ draft: { subject: "s", html: heavy }, spam: false });
    // The first holds the user's one check (the kind's set of users is on globalThis, lib/server/limits/one-at-a-time.ts).
    const checking = () => (globalThis as { [key: symbol]: Set<string> | undefined })[Symbol.for("mail-dashboard.one-at-a-time.presend-checks")]?.size ?? 0;
    await expect.poll(checking, { timeout: 20_000 }).toBe(1);
    const second = await check({ draft: { subject: "s", text: "t" }, spam: false });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await second.json()).error.code).toBe("check_in_progress");
    expect((await first).status).toBe(200);
    expect((await check({ draft: { subject: "s", text: "t" }, spam: false })).status).toBe(200);
  });

  it("needs a signed-in user with access to the project", async () => {
    expect((await check({ draft: { subject: "s" } }, null)).status).toBe(401);
    expect((await check({ draft: { subject: "s" } }, limited)).status).toBe(404);
    expect((await check({ draft: { subject: "s" } }, limited, "other")).status).toBe(200);
  });
});

describe("POST /api/p/[project]/checks/links", () => {
  it("refuses a loopback link (public addresses only) and says why", async () => {
    const res = await links({ urls: [`${site.url}/page`] });
    expect(res.status).toBe(200);
    const { results } = await res.json();
    expect(results).toEqual([expect.objectContaining({ url: `${site.url}/page`, ok: false, status: null, problem: expect.stringMatching(/not a public address/) })]);
    expect(site.requests).toHaveLength(0);
  });

  it.each([
    ["no links", { urls: [] }, "urls"],
    ["a javascript: link", { urls: ["javascript:alert(1)"] }, "urls.0"],
    ["more than 50 links", { urls: Array.from({ length: 51 }, (_, i) => `https://acme.test/${i}`) }, "urls"],
  ])("refuses %s with a 400 naming the field", async (_, body, param) => {
    const res = await links(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe(param);
  });

  it("needs a signed-in user", async () => {
    expect((await links({ urls: ["https://acme.test/"] }, null)).status).toBe(401);
  });

  it("runs one link check at a time per user: a second one meanwhile is a 429 with Retry-After", async () => {
    // Finding 9 of the second review: eight parallel checks of one support user kept 48 requests open.
    setTestEnv({ SPAMD_HOST: undefined, OUTBOUND_ALLOW_HOSTS: new URL(site.url).host });
    let answer!: () => void;
    slowPages = new Promise<void>((r) => (answer = r));
    try {
      const first = links({ urls: [`${site.url}/slow/1`, `${site.url}/slow/2`] }, support);
      // Both its pages asked and not answered: the first check is under way, holding the user's one.
      await expect.poll(() => site.requests.filter((r) => /^\/slow\/[12]$/.test(r.url)).length, { timeout: 20_000 }).toBe(2);
      const second = await links({ urls: [`${site.url}/slow/3`] }, support);
      expect(second.status).toBe(429);
      expect(second.headers.get("retry-after")).toBe("5");
      expect((await second.json()).error.code).toBe("link_check_in_progress");
      // Another user's check runs meanwhile.
      const another = links({ urls: [`${site.url}/slow/4`] }, marketer);
      await expect.poll(() => site.requests.some((r) => r.url === "/slow/4"), { timeout: 20_000 }).toBe(true);
      answer();
      expect((await another).status).toBe(200);
      const { results } = await (await first).json();
      expect(results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
      expect(site.requests.filter((r) => r.url === "/slow/3")).toHaveLength(0);
    } finally {
      answer();
      setTestEnv({ SPAMD_HOST: undefined });
    }
  });
});
