import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { projects, users } from "@/lib/server/db/schema/core";
import { useTestDb } from "@/lib/server/db/test-db";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/server/http/security-headers";
import { installRequestMetrics } from "@/lib/server/metrics/http-requests";
import { series } from "@/lib/server/metrics/registry";
import { clearMessageCache } from "@/lib/server/message-index/read";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { createUser, endUserSessions, setUserProjects, updateUser } from "@/lib/server/users";
import { createUserRequest } from "@/lib/schemas/users";
import { PEER_HEADER } from "@/lib/server/http/client-address";
import { installMessageReadFastPath, messageReadTarget, nextRequestOf } from "./read-fast-path";
import { SERVICE_MESSAGE } from "@/lib/test/service-message";
import { messageReadRoute as GET } from "./read-route";

/**
 * The message read's two doors run the same cases: the app route (what Next calls: the app
 * route file exports read-route.ts's handler as its GET; lib/ does not import app/) and the fast path on a real HTTP server, before the server's own
 * handler (standing in for Next, it answers 299 "next"). Same status, same body, same error
 * shape; the fast path's answer carries the headers next.config.mjs gives every API answer.
 */
const MESSAGE = SERVICE_MESSAGE;
/** Over the 1 KiB from which Next compresses an answer. */
const BIG = { ...MESSAGE, id: "msg_big", subject: "x".repeat(3000) };
/** Characters of more than one byte: the answer's Content-Length counts bytes, not characters. */
const UTF8 = { ...MESSAGE, id: "msg_utf8", subject: "Grüße aus Köln, 東京 🚀" };

let dispose: () => Promise<void>;
let service: TestServer;
let server: http.Server;
let base: string;
let adminId: string;

beforeAll(async () => {
  service = await startHttpServer((req, res) => {
    if (req.url === "/v1/emails/msg_1" && req.headers["x-service-product"] === "demo") return json(res, 200, MESSAGE);
    if (req.url === "/v1/emails/msg_big" && req.headers["x-service-product"] === "demo") return json(res, 200, BIG);
    if (req.url === "/v1/emails/msg_utf8" && req.headers["x-service-product"] === "demo") return json(res, 200, UTF8);
    return json(res, 404, { error: { message: "Message not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: service.url, SERVICE_API_KEY: "sk_account_wide_do_not_leak", PUBLIC_URL: "http://localhost:3000" });
  ({ dispose } = await useTestDb());
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  await registerProject({ externalId: "other" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  adminId = (await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id;
  installMessageReadFastPath();
  installRequestMetrics();
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(299, { "content-type": "text/plain" }).end("next"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dispose();
  await service.close();
});
beforeEach(() => clearMessageCache());

type Answer = { status: number; body: unknown; headers: Headers };
type Door = (path: string, opts?: { cookie?: string; headers?: Record<string, string> }) => Promise<Answer>;

/** The app route, called as Next calls it (the params as Next hands them: the segments of the path). */
const appRoute: Door = async (path, opts = {}) => {
  const [, , , project, , id] = new URL(path, "http://x").pathname.split("/");
  const res = await GET(await apiRequest(path, opts), params({ project: project!, id: id! }));
  return { status: res.status, body: await res.json(), headers: res.headers };
};
const fastPath: Door = async (path, opts = {}) => {
  const res = await fetch(`${base}${path}`, { headers: { ...opts.headers, ...(opts.cookie ? { cookie: opts.cookie } : {}) } });
  expect(res.status).not.toBe(299);
  return { status: res.status, body: await res.json(), headers: res.headers };
};

let n = 0;
async function newUser(opts: { projects?: "all" | "other" } = {}) {
  const { user } = await createUser(createUserRequest.parse({ email: `u${++n}@example.com`, role: "support", allProjects: true }), SYSTEM_ACTOR);
  if (opts.projects === "other") {
    const [other] = await (await db()).select().from(projects).where(eq(projects.externalId, "other"));
    await setUserProjects(user.id, { allProjects: false, projectIds: [other!.id] }, SYSTEM_ACTOR);
  }
  return { id: user.id, cookie: await sessionCookie(user.id) };
}
const ADMIN = () => ({ id: adminId, email: "admin@example.com", role: "admin" as const });

describe.each([
  ["the app route", appRoute],
  ["the fast path", fastPath],
])("GET /api/p/<project>/messages/<id> through %s", (_, door) => {
  it("answers the message read through the service with the project of the URL", async () => {
    const { cookie } = await newUser();
    const before = service.requests.length;
    const res = await door("/api/p/demo/messages/msg_1", { cookie, headers: { "x-service-product": "other" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: "msg_1", status: "delivered", events: [{ type: "queued" }, { type: "delivery" }] });
    expect(service.requests.length).toBe(before + 1);
    expect(service.requests.at(-1)!.headers["x-service-product"]).toBe("demo");
    expect(JSON.stringify(res.body)).not.toContain("sk_account_wide_do_not_leak");
    expect(res.headers.get("cache-control")).toMatch(/^no-store/);
    expect(res.headers.get("x-correlation-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("passes the service's 404 on with its message", async () => {
    const { cookie } = await newUser();
    const res = await door("/api/p/demo/messages/nope", { cookie });
    expect(res.status).toBe(404);
    expect((res.body as { error: unknown }).error).toMatchObject({ message: "Message not found", code: "not_found" });
  });

  it("401 signed out or with a forged session; 404 for a project unknown or not granted, without asking the service", async () => {
    const before = service.requests.length;
    expect((await door("/api/p/demo/messages/msg_1")).status).toBe(401);
    expect((await door("/api/p/demo/messages/msg_1", { cookie: "authjs.session-token=forged" })).status).toBe(401);
    const limited = await newUser({ projects: "other" });
    const refused = await door("/api/p/demo/messages/msg_1", { cookie: limited.cookie });
    const unknown = await door("/api/p/nowhere/messages/msg_1", { cookie: limited.cookie });
    expect([refused.status, unknown.status]).toEqual([404, 404]);
    const withoutId = (b: unknown) => ({ ...(b as { error: object }).error, correlationId: undefined });
    expect(withoutId(refused.body)).toEqual(withoutId(unknown.body));
    expect((refused.body as { error: { code: string } }).error.code).toBe("project_not_found");
    expect(service.requests.length).toBe(before);
  });

  it("a 400 naming the parameter for an id past its bound", async () => {
    const { cookie } = await newUser();
    const res = await door(`/api/p/demo/messages/${"a".repeat(201)}`, { cookie });
    expect(res.status).toBe(400);
    expect((res.body as { error: { param: string } }).error).toMatchObject({ code: "validation_error", param: "id" });
  });

  it.each([
    ["its sessions ended", (id: string) => endUserSessions(id, ADMIN())],
    ["disabled", (id: string) => updateUser(id, { active: false }, ADMIN())],
    ["given another role", (id: string) => updateUser(id, { role: "marketer" }, ADMIN())],
    ["removed", async (id: string) => void (await (await db()).delete(users).where(eq(users.id, id)))],
  ])("a user %s between two reads loses access at once, the cached read too", async (_, change) => {
    const user = await newUser();
    expect((await door("/api/p/demo/messages/msg_1", { cookie: user.cookie })).status).toBe(200);
    // The second read would come from the read cache: the guard still runs first.
    await change(user.id);
    const res = await door("/api/p/demo/messages/msg_1", { cookie: user.cookie });
    expect(res.status).toBe(401);
    expect((res.body as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("a grant withdrawn between two reads is the 404 of a project never granted", async () => {
    const user = await newUser();
    expect((await door("/api/p/demo/messages/msg_1", { cookie: user.cookie })).status).toBe(200);
    const [other] = await (await db()).select().from(projects).where(eq(projects.externalId, "other"));
    await setUserProjects(user.id, { allProjects: false, projectIds: [other!.id] }, SYSTEM_ACTOR);
    expect((await door("/api/p/demo/messages/msg_1", { cookie: user.cookie })).status).toBe(404);
  });
});

describe("the fast path's own door", () => {
  it("gives its answers the headers next.config.mjs gives every API answer, and counts them as every request", async () => {
    const { cookie } = await newUser();
    for (const path of ["/api/p/demo/messages/msg_1", "/api/p/demo/messages/nope", "/api/p/nowhere/messages/msg_1"]) {
      const res = await fetch(`${base}${path}`, { headers: { cookie } });
      for (const { key, value } of STATIC_SECURITY_HEADERS) expect(res.headers.get(key)).toBe(value);
      expect(res.headers.get("content-security-policy")).toBe(API_CONTENT_SECURITY_POLICY);
    }
    // Counted as every request is, by the metrics hook installed after (so around) it.
    const counted = async () =>
      (await series().httpRequests.get()).values.find((v) => v.labels.route === "/api/p/[project]/messages/[id]" && v.labels.method === "GET" && v.labels.status === "200")?.value ?? 0;
    const before = await counted();
    await (await fetch(`${base}/api/p/demo/messages/msg_1`, { headers: { cookie } })).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await counted()).toBe(before + 1);
  });

  it("compresses a large answer as Next would, the same body once decoded", async () => {
    const { cookie } = await newUser();
    const res = await fetch(`${base}/api/p/demo/messages/msg_big`, { headers: { cookie, "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    const direct = await appRoute("/api/p/demo/messages/msg_big", { cookie });
    expect(await res.json()).toEqual(direct.body);
    const small = await fetch(`${base}/api/p/demo/messages/msg_1`, { headers: { cookie, "accept-encoding": "gzip" } });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("vary")).toBeNull();
  });

  it("says the answer varies on Accept-Encoding to a client that does not take gzip too, the body then plain", async () => {
    const { cookie } = await newUser();
    const res = await fetch(`${base}/api/p/demo/messages/msg_big`, { headers: { cookie, "accept-encoding": "identity" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(await res.json()).toEqual((await appRoute("/api/p/demo/messages/msg_big", { cookie })).body);
  });

  it("writes the route's JSON text as it is: the same bytes as the app route, the length in bytes", async () => {
    const { cookie } = await newUser();
    const res = await fetch(`${base}/api/p/demo/messages/msg_utf8`, { headers: { cookie, "accept-encoding": "identity" } });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
    const [, , , project, , id] = "/api/p/demo/messages/msg_utf8".split("/");
    const viaNext = await GET(await apiRequest("/api/p/demo/messages/msg_utf8", { cookie }), params({ project: project!, id: id! }));
    expect(bytes.equals(Buffer.from(await viaNext.arrayBuffer()))).toBe(true);
    expect(JSON.parse(bytes.toString("utf8")).subject).toBe(UTF8.subject);
  });

  it("answers 400 to a header the web's Headers refuses, instead of closing the connection", async () => {
    const peer = { remoteAddress: "10.0.0.7" };
    const fake = (headers: Record<string, string>) => ({ headers, url: "/api/p/demo/messages/msg_1", socket: peer }) as unknown as http.IncomingMessage;
    const refused = nextRequestOf(fake({ cookie: "a=b", "x-odd": "line\nbreak" }));
    expect(refused).toBeInstanceOf(Response);
    const answer = refused as Response;
    expect(answer.status).toBe(400);
    expect(answer.headers.get("cache-control")).toMatch(/^no-store/);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("invalid_header");
    // A request it takes: the client's own peer header is replaced by the TCP peer's address.
    const taken = nextRequestOf(fake({ cookie: "a=b", [PEER_HEADER]: "1.2.3.4" }));
    expect(taken).not.toBeInstanceOf(Response);
    expect((taken as Request).headers.get(PEER_HEADER)).toBe("10.0.0.7");
    expect((taken as Request).url).toBe("http://localhost:3000/api/p/demo/messages/msg_1");
  });

  it("hands route() a NextRequest whose method, URL and headers are there at once, and whose other parts work when read", () => {
    const fake = { headers: { cookie: "a=b; c=d", "cache-control": "no-cache" }, url: "/api/p/demo/messages/msg_1?x=1", socket: { remoteAddress: "10.0.0.7" } } as unknown as http.IncomingMessage;
    const request = nextRequestOf(fake) as NextRequest;
    expect(request).toBeInstanceOf(NextRequest);
    expect(request.method).toBe("GET");
    expect(request.headers.get("cache-control")).toBe("no-cache");
    expect(request.nextUrl.pathname).toBe("/api/p/demo/messages/msg_1");
    expect(request.nextUrl.searchParams.get("x")).toBe("1");
    expect(request.cookies.get("c")?.value).toBe("d");
    expect(request.signal.aborted).toBe(false);
    expect(request.clone().url).toBe("http://localhost:3000/api/p/demo/messages/msg_1?x=1");
  });

  it.each([
    ["POST", "/api/p/demo/messages/msg_1"],
    ["HEAD", "/api/p/demo/messages/msg_1"],
    ["GET", "/api/p/demo/messages/msg_1/"],
    ["GET", "/api/p/demo/messages/msg%5F1"],
    ["GET", "/api/p/%64emo/messages/msg_1"],
    ["GET", "/api/p/../messages/msg_1"],
    ["GET", "/api/p/demo/messages/msg_1/detail"],
    ["GET", "http://localhost/api/p/demo/messages/msg_1"],
    ["GET", "/api/p/demo/messages"],
  ])("leaves %s %s to Next", (method, url) => {
    expect(messageReadTarget(method, url)).toBeNull();
  });

  it("leaves every static route beside [id] to Next, which routes it before [id] (the export)", () => {
    const dir = path.join(process.cwd(), "app/api/p/[project]/messages");
    const statics = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith("["));
    expect(statics.map((e) => e.name)).toContain("export");
    for (const { name } of statics) {
      expect(messageReadTarget("GET", `/api/p/demo/messages/${name}`), name).toBeNull();
      expect(messageReadTarget("GET", `/api/p/demo/messages/${name}?format=csv`), name).toBeNull();
    }
  });

  it("takes the plain spelling, with a query", () => {
    expect(messageReadTarget("GET", "/api/p/demo/messages/msg_1?x=%00")).toEqual({ project: "demo", id: "msg_1" });
  });

  it("hands what it leaves to the server's own handler", async () => {
    const res = await fetch(`${base}/api/p/demo/messages/msg%5F1`);
    expect(res.status).toBe(299);
  });
});
