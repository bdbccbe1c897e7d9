import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { POST as SIMULATE } from "../inbound/simulate/route";
import { GET as DETAIL } from "./[id]/detail/route";
import { POST as REPLY } from "./[id]/reply/route";
import { GET } from "./route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

let close: () => Promise<void>;
let service: TestServer;
let support: string;
let marketer: string;
let projectId: string;
const replies = new Map<string, string>(); // idempotency key → reply id

const INBOUND = {
  id: "in_1", from: "ada@example.com", to: ["help@acme.test"], subject: "Where is it?", status: "received", direction: "inbound",
  createdAt: "2026-01-02T00:00:00Z", threadId: "in_1", text: "Where is my order?", events: [{ type: "inbound_received", createdAt: "2026-01-02T00:00:00Z" }],
};

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = req.url;
    if (req.method === "GET" && url === "/v1/emails/in_1") return json(res, 200, INBOUND);
    if (req.method === "GET" && url === "/v1/emails/lookup_only_1") return json(res, 200, { ...INBOUND, id: "lookup_only_1", direction: "outbound", status: "delivered", threadId: null, to: ["zed@example.com"] });
    if (req.method === "GET" && /^\/v1\/emails\/rep_\d+$/.test(url)) {
      return json(res, 200, { ...INBOUND, id: url.split("/").pop(), from: "help@acme.test", to: ["ada@example.com"], subject: "Re: Where is it?", status: "queued", direction: "outbound", createdAt: "2026-01-02T01:00:00Z", events: [] });
    }
    if (url.endsWith("/attachments")) return json(res, 200, { data: [] });
    if (req.method === "POST" && url === "/v1/emails/in_1/reply") {
      const key = String(req.headers["idempotency-key"]);
      if (!replies.has(key)) replies.set(key, `rep_${replies.size + 1}`);
      return json(res, 202, { id: replies.get(key), status: "queued" });
    }
    if (req.method === "POST" && url === "/v1/inbound/simulate") return json(res, 200, { ...INBOUND, id: "in_sim" });
    return json(res, 404, { error: { message: "Message not found", code: "not_found" } });
  }));
  projectId = (await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false })).id;
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", allProjects: true }), SYSTEM_ACTOR)).user.id);
  const request = (to: string, subject: string) => ({ from: { email: "shop@acme.test" }, to: [{ email: to }], subject, text: "x" });
  const day = (d: number) => new Date(Date.UTC(2026, 0, d));
  await recordSentMessages([
    { projectId, messageId: "m1", request: request("Ada@Example.com", "First"), sentBy: null, idempotencyKey: "k1", source: "dashboard", createdAt: day(1) },
    { projectId, messageId: "m2", request: request("ada@example.com", "Second"), sentBy: null, idempotencyKey: "k2", source: "dashboard", status: "bounced", createdAt: day(2) },
    { projectId, messageId: "m3", request: { ...request("bob@example.com", "Third"), tags: [{ name: "kind", value: "receipt" }] }, sentBy: null, idempotencyKey: "k3", source: "batch", createdAt: day(3) },
  ]);
  // Idempotent: the same message recorded again changes nothing.
  await recordSentMessages([{ projectId, messageId: "m2", request: request("x@example.com", "Changed"), sentBy: null, idempotencyKey: "k2", source: "dashboard" }]);
});
afterAll(() => close());

const list = async (query: string, cookie = support) => {
  const res = await GET(await apiRequest(`/api/p/demo/messages?${query}`, { cookie }), params({ project: "demo" }));
  return { status: res.status, body: await res.json() };
};

describe("GET /api/p/[project]/messages", () => {
  it("lists newest first, for every reading role", async () => {
    const { status, body } = await list("", marketer);
    expect(status).toBe(200);
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(["m3", "m2", "m1"]);
  });

  it("finds by recipient (any case), by status, by tag and by date range", async () => {
    expect((await list("q=ADA@example.com")).body.data.map((m: { id: string }) => m.id)).toEqual(["m2", "m1"]);
    expect((await list("q=ada@example.com&status=bounced")).body.data.map((m: { id: string }) => m.id)).toEqual(["m2"]);
    expect((await list("tag=kind:receipt")).body.data.map((m: { id: string }) => m.id)).toEqual(["m3"]);
    expect((await list("from=2026-01-02T00:00:00Z&to=2026-01-02T23:59:59Z")).body.data.map((m: { id: string }) => m.id)).toEqual(["m2"]);
    expect((await list("q=Second")).body.data[0]).toMatchObject({ id: "m2", subject: "Second", status: "bounced" });
  });

  it("pages with a cursor, without repeats", async () => {
    const first = await list("limit=2");
    expect(first.body.data).toHaveLength(2);
    const second = await list(`limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual(["m1"]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("refuses bad filters naming the field", async () => {
    const { status, body } = await list("status=lost");
    expect(status).toBe(400);
    expect(body.error.param).toBe("status");
    expect((await list("cursor=bm9wZQ")).body.error.param).toBe("cursor");
  });

  it("a pasted id the index never saw is asked of the service, indexed and returned to open", async () => {
    const { body } = await list("q=lookup_only_1");
    expect(body.openId).toBe("lookup_only_1");
    expect((await list("q=zed@example.com")).body.data[0]).toMatchObject({ id: "lookup_only_1", source: "lookup" });
  });
});

describe("reply and simulate", () => {
  const reply = async (cookie: string, body: unknown) => REPLY(await apiRequest("/api/p/demo/messages/in_1/reply", { method: "POST", cookie, body }), params({ project: "demo", id: "in_1" }));

  it("a marketer is refused reply and simulate by the routes", async () => {
    const r = await reply(marketer, { text: "hi", idempotencyKey: "key-marketer" });
    expect(r.status).toBe(403);
    const s = await SIMULATE(await apiRequest("/api/p/demo/inbound/simulate", { method: "POST", cookie: marketer, body: { to: "help@acme.test", from: "a@example.com", subject: "x" } }), params({ project: "demo" }));
    expect(s.status).toBe(403);
    expect(replies.size).toBe(0);
  });

  it("the same Idempotency-Key twice sends one reply, and the thread shows both messages", async () => {
    const body = { text: "It ships today.", idempotencyKey: "key-reply-once" };
    const [a, b] = await Promise.all([reply(support, body), reply(support, body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await a.json()).id).toBe((await b.json()).id);
    expect(replies.size).toBe(1);
    const detail = await (await DETAIL(await apiRequest("/api/p/demo/messages/in_1/detail", { cookie: support }), params({ project: "demo", id: "in_1" }))).json();
    expect(detail.thread.map((m: { id: string; direction: string }) => [m.id, m.direction])).toEqual([["in_1", "inbound"], ["rep_1", "outbound"]]);
    expect(detail.settled).toBe(true);
  });

  it("a reply without text names the field", async () => {
    const r = await reply(support, { text: " ", idempotencyKey: "key-empty" });
    expect(r.status).toBe(400);
    expect((await r.json()).error.param).toBe("text");
  });

  it("support simulates inbound mail and it is indexed", async () => {
    const s = await SIMULATE(await apiRequest("/api/p/demo/inbound/simulate", { method: "POST", cookie: support, body: { to: "help@acme.test", from: "ada@example.com", subject: "x", text: "y" } }), params({ project: "demo" }));
    expect(s.status).toBe(200);
    expect((await s.json()).id).toBe("in_sim");
    expect((await list("q=in_sim")).body.data[0]).toMatchObject({ id: "in_sim", direction: "inbound" });
  });
});
