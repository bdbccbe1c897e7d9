import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { message as serviceMessage } from "@/lib/schemas/emails";
import { SEARCH_QUERY_LIMITS } from "@/lib/messages/search-query/limits";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { GET } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * The search language through the messages route (issue 28), on the test database: PGlite, or
 * Postgres when TEST_DATABASE_URL is set. Messages are written by the real writers.
 */
let close: () => Promise<void>;
let support: string;
const HOUR = 3_600_000;
const day = (d: number) => new Date(Date.UTC(2026, 0, d, 12));

beforeAll(async () => {
  ({ close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "Message not found", code: "not_found" } })));
  const projectId = (await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false })).id;
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
  const send = (id: string, createdAt: Date, status: string, request: Record<string, unknown>) => ({
    projectId, messageId: id, sentBy: null, idempotencyKey: `k-${id}`, source: "dashboard" as const, status, createdAt,
    request: { from: { email: "shop@acme.test" }, text: "x", ...request } as never,
  });
  await recordSentMessages([
    send("s1", day(1), "delivered", {
      to: [{ email: "ada@example.com" }], cc: [{ email: "carol@example.com" }], subject: "Order shipped", tags: [{ name: "plan", value: "pro" }],
      attachments: [{ filename: "invoice.pdf", content: "JVBERi0=", contentType: "application/pdf" }],
    }),
    send("s2", day(2), "bounced", { to: [{ email: "ada@example.com" }], subject: "Reset your password", tags: [{ name: "plan", value: "free" }] }),
    send("s3", day(3), "failed", { to: [{ email: "bob@example.com" }], subject: "Order delayed", tags: [{ name: "plan", value: "pro" }, { name: "test", value: "yes" }] }),
    send("s5", new Date(Date.now() - HOUR), "sent", { to: [{ email: "dan@example.com" }], subject: "Fresh news" }),
  ]);
  await indexServiceMessage(projectId, serviceMessage.parse({
    id: "in4", from: "ada@example.com", to: ["help@acme.test"], subject: "Order question", status: "received", direction: "inbound",
    createdAt: day(4).toISOString(), events: [{ type: "inbound_received", createdAt: day(4).toISOString() }],
  }));
});
afterAll(() => close());

type Answer = { status: number; body: { data: { id: string }[]; problems: { term: string; why: string; example: string }[]; error?: { param?: string; message: string } } };
async function search(q: string): Promise<Answer> {
  const res = await GET(await apiRequest(`/api/p/demo/messages?${new URLSearchParams({ q })}`, { cookie: support }), params({ project: "demo" }));
  return { status: res.status, body: await res.json() };
}
const ids = async (q: string) => {
  const { status, body } = await search(q);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data.map((m) => m.id);
};

describe("the search language through GET /api/p/[project]/messages", () => {
  it.each([
    ["to:ada@example.com", ["s2", "s1"]],
    ["to:ADA@example.com", ["s2", "s1"]],
    ["to:@example", ["s5", "s3", "s2", "s1"]],
    ["from:ada@example.com", ["in4"]],
    ["from:shop@", ["s5", "s3", "s2", "s1"]],
    ["cc:carol@example.com", ["s1"]],
    ["cc:carol", ["s1"]],
    ["subject:order", ["in4", "s3", "s1"]],
    ['subject:"order shipped"', ["s1"]],
    ["tag:plan", ["s3", "s2", "s1"]],
    ["tag:plan=pro", ["s3", "s1"]],
    ["tag:test", ["s3"]],
    ["status:bounced", ["s2"]],
    ["status:bounce", ["s2"]],
    ["status:delivery", ["s1"]],
    ["status:inbound_received", ["in4"]],
    ["direction:inbound", ["in4"]],
    ["direction:outbound", ["s5", "s3", "s2", "s1"]],
    ["id:s3", ["s3"]],
    ["has:attachment", ["s1"]],
    ["after:2026-01-02 before:2026-01-04", ["s3", "s2"]],
    ["before:2026-01-02T12:00", ["s1"]],
    ["after:2h", ["s5"]],
    ["after:30m", []],
    ["order", ["in4", "s3", "s1"]],
    ['"order shipped"', ["s1"]],
    ["ada@example.com", ["in4", "s2", "s1"]],
  ])("%s", async (q, expected) => {
    expect(await ids(q)).toEqual(expected);
  });

  it.each([
    ["-tag:test tag:plan=pro", ["s1"]],
    ["-tag:plan", ["s5", "in4"]],
    ["-status:bounced direction:outbound", ["s5", "s3", "s1"]],
    ["-direction:outbound", ["in4"]],
    ['-"order" direction:outbound', ["s5", "s2"]],
    ["-subject:order", ["s5", "s2"]],
    ["-to:ada@example.com direction:outbound", ["s5", "s3"]],
    ["-has:attachment direction:outbound", ["s5", "s3", "s2"]],
    ["-after:2026-01-03", ["s2", "s1"]],
    ["-id:s1 tag:plan", ["s3", "s2"]],
  ])("negated: %s", async (q, expected) => {
    expect(await ids(q)).toEqual(expected);
  });

  it("combines terms with AND: a tag, a status and a date range", async () => {
    expect(await ids("tag:plan=pro status:failed after:2026-01-01 before:2026-01-05")).toEqual(["s3"]);
    expect(await ids("tag:plan=pro status:bounced after:2026-01-01 before:2026-01-05")).toEqual([]);
  });

  it("leaves out a term it does not understand, says which and why, and runs the rest", async () => {
    const { status, body } = await search("colour:red tag:plan=pro status:sleepy");
    expect(status).toBe(200);
    expect(body.data.map((m) => m.id)).toEqual(["s3", "s1"]);
    expect(body.problems.map((p) => p.term)).toEqual(["colour:red", "status:sleepy"]);
    expect(body.problems[1]).toMatchObject({ why: expect.stringMatching(/not a status/), example: "status:bounced" });
    expect((await search("tag:plan=pro")).body.problems).toEqual([]);
  });

  it("treats search text as data, never as SQL or LIKE patterns", async () => {
    expect(await ids("subject:%")).toEqual([]);
    expect(await ids("'; drop table indexed_messages; --")).toEqual([]);
    expect(await ids("_")).toEqual([]);
    expect(await ids("tag:plan=pro")).toEqual(["s3", "s1"]);
  });

  it("refuses a query past its length or term limit with a 400 naming q and the limit", async () => {
    const long = await search("a".repeat(SEARCH_QUERY_LIMITS.maxLength + 1));
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ param: "q", message: expect.stringContaining(`${SEARCH_QUERY_LIMITS.maxLength} characters`) });
    const many = await search(Array.from({ length: SEARCH_QUERY_LIMITS.maxTerms + 1 }, (_, i) => `w${i}`).join(" "));
    expect(many.status).toBe(400);
    expect(many.body.error).toMatchObject({ param: "q", message: expect.stringContaining(`${SEARCH_QUERY_LIMITS.maxTerms} terms`) });
    expect((await search(Array.from({ length: SEARCH_QUERY_LIMITS.maxTerms }, () => "order").join(" "))).status).toBe(200);
  });
});
