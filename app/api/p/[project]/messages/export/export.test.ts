import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Papa from "papaparse";
import { listAudit, SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { sql } from "drizzle-orm";
import { indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { MESSAGE_EXPORT_PAGE } from "@/lib/server/export/messages";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { GET as AUDIT_EXPORT } from "@/app/api/admin/audit/export/route";
import { GET as CONTACTS_EXPORT } from "@/app/api/p/[project]/contacts/export/route";
import { GET as RECIPIENT_EXPORT } from "@/app/api/p/[project]/recipients/[email]/export/route";
import { POST as ERASE } from "@/app/api/p/[project]/recipients/[email]/erase/route";
import { GET } from "./route";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Exports (issue 28) through their routes, on the test database (PGlite, or Postgres with
 * TEST_DATABASE_URL): more rows than one page, the columns, formulae neutralised, erasures,
 * project isolation and roles, and the audit entry with the row count.
 */
let close: () => Promise<void>;
const cookies: Record<string, string> = {};
const MANY = MESSAGE_EXPORT_PAGE * 2 + 37;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000);

beforeAll(async () => {
  ({ close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "not found", code: "not_found" } })));
  const demo = await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const other = await registerProject({ externalId: "other" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const user = async (email: string, role: "support" | "admin" | "marketer", allProjects = true) =>
    sessionCookie((await createUser(createUserRequest.parse({ email, role, allProjects, password: "correct horse battery" }), SYSTEM_ACTOR)).user.id);
  cookies.support = await user("s@example.com", "support");
  cookies.admin = await user("a@example.com", "admin");
  cookies.outsider = await user("o@example.com", "support", false);
  const send = (projectId: string, id: string, createdAt: Date, status: string, request: Record<string, unknown>) => ({
    projectId, messageId: id, sentBy: null, idempotencyKey: `k-${id}`, source: "dashboard" as const, status, createdAt,
    request: { from: { email: "shop@acme.test" }, text: "x", to: [{ email: "bulk@example.com" }], subject: "Weekly news", ...request } as never,
  });
  await recordSentMessages(Array.from({ length: MANY }, (_, i) => send(demo.id, `m${String(i).padStart(5, "0")}`, at(i), "delivered", {})));
  await recordSentMessages([
    send(demo.id, "bad", at(MANY + 1), "bounced", { to: [{ email: "ada@example.com" }], cc: [{ email: "carol@example.com" }], subject: "=HYPERLINK(\"http://evil\")", tags: [{ name: "plan", value: "pro" }] }),
    send(demo.id, "erased1", at(MANY + 2), "delivered", { to: [{ email: "erase.me@example.com" }], subject: "Private" }),
    send(other.id, "theirs", at(MANY + 3), "delivered", { subject: "Weekly news" }),
  ]);
  await (await db()).insert(indexedEvents).values([
    { messageId: "bad", projectId: demo.id, type: "delivery.attempted", occurredAt: at(MANY + 1), data: {} },
    { messageId: "bad", projectId: demo.id, type: "bounce", occurredAt: at(MANY + 5), data: { bounce: { message: "-550 mailbox full" } } },
  ]);
  // Contacts seen at the same instant: the keyset must still list each once.
  const seenAt = new Date("2026-02-01T00:00:00Z");
  await (await db()).insert(contactsIndex).values(
    Array.from({ length: 1_203 }, (_, i) => ({ projectId: demo.id, id: `c${i}`, email: `c${i}@example.com`, firstName: i === 7 ? "@SUM(A1)" : null, subscribed: true, source: "created", createdAt: seenAt, seenAt })),
  );
});
afterAll(() => close());

const exportMessages = async (query: Record<string, string>, cookie = cookies.support, project = "demo") =>
  GET(await apiRequest(`/api/p/${project}/messages/export?${new URLSearchParams(query)}`, { cookie }), params({ project }));
const csvRows = (text: string) => Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ""), { header: true, skipEmptyLines: true }).data;

describe("message export", () => {
  it("writes every page of the search, not only the first", async () => {
    const res = await exportMessages({ format: "csv", q: "subject:weekly" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="messages-demo-\d{4}-\d\d-\d\d\.csv"$/);
    const rows = csvRows(await res.text());
    expect(rows).toHaveLength(MANY);
    expect(new Set(rows.map((r) => r.id)).size).toBe(MANY);
    expect(rows.map((r) => r.id)).not.toContain("theirs");
  });

  it("has a support ticket's columns, the last event and the failure's reason, and neutralises formulae", async () => {
    const res = await exportMessages({ format: "csv", q: "to:ada@example.com" });
    const text = await res.text();
    expect(text.replace(/^\ufeff/, "").split("\r\n")[0]).toBe("id,created_at,direction,from,to,cc,subject,status,last_event,last_event_at,failure_reason,tags");
    const [row] = csvRows(text);
    expect(row).toMatchObject({ id: "bad", to: "ada@example.com", cc: "carol@example.com", status: "bounced", last_event: "bounce", tags: "plan:pro" });
    expect(row!.subject).toBe(`'=HYPERLINK("http://evil")`);
    expect(row!.failure_reason).toBe("'-550 mailbox full");
    expect(row!.last_event_at).toBe(at(MANY + 5).toISOString());
  });

  it("writes NDJSON: one object a line, lists kept as lists", async () => {
    const res = await exportMessages({ format: "ndjson", q: "to:ada@example.com" });
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ id: "bad", to: ["ada@example.com"], subject: `=HYPERLINK("http://evil")`, failure_reason: "-550 mailbox full" })]);
  });

  it("is audited once with its filter and row count", async () => {
    await (await exportMessages({ format: "ndjson", q: "subject:weekly", status: "delivered" })).text();
    const [entry] = (await listAudit(auditQuery.parse({ action: "export.messages", actorId: undefined }))).data;
    expect(entry).toMatchObject({ actorEmail: "s@example.com", project: "demo", outcome: "success", detail: { format: "ndjson", rows: MANY, filter: { q: "subject:weekly", status: "delivered" } } });
  });

  it("keeps to the user's projects and to the roles", async () => {
    expect((await exportMessages({}, cookies.outsider)).status).toBe(404);
    const theirs = csvRows(await (await exportMessages({ q: "subject:weekly" }, cookies.support, "other")).text());
    expect(theirs.map((r) => r.id)).toEqual(["theirs"]);
    const audit = async (cookie: string) => AUDIT_EXPORT(await apiRequest("/api/admin/audit/export?format=csv&action=export.messages", { cookie }), params({}));
    expect((await audit(cookies.support)).status).toBe(403);
    const res = await audit(cookies.admin);
    expect(res.status).toBe(200);
    const rows = csvRows(await res.text());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.action === "export.messages")).toBe(true);
  });

  it("names a bad format or filter with a 400", async () => {
    const res = await exportMessages({ format: "xlsx" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("format");
  });

  it("loses no message at a page's edge when times differ below the millisecond", async () => {
    // Messages a few microseconds apart (the index keeps microseconds; a JavaScript Date does not).
    const micro = await registerProject({ externalId: "micro" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
    const count = MESSAGE_EXPORT_PAGE + 20;
    await (await db()).insert(indexedMessages).values(
      Array.from({ length: count }, (_, i) => ({
        id: `u${String(i).padStart(4, "0")}`, projectId: micro.id, direction: "outbound" as const, status: "sent", from: "shop@acme.test", source: "dashboard",
        createdAt: sql`'2026-03-01T00:00:00.000Z'::timestamptz + make_interval(secs => ${i} / 1000000.0)` as unknown as Date,
      })),
    );
    const rows = csvRows(await (await exportMessages({ format: "csv" }, cookies.support, "micro")).text());
    expect(new Set(rows.map((r) => r.id)).size).toBe(count);
    expect(rows[0]!.created_at).toBe("2026-03-01T00:00:00.000Z");
  });

  it("leaves an erased address out, as the screens do", async () => {
    const recipient = async () =>
      csvRows(await (await RECIPIENT_EXPORT(await apiRequest("/api/p/demo/recipients/erase.me%40example.com/export?format=csv", { cookie: cookies.support }), params({ project: "demo", email: "erase.me%40example.com" }))).text());
    expect((await recipient()).map((r) => r.id)).toEqual(["erased1"]);
    const erased = await ERASE(
      await apiRequest("/api/p/demo/recipients/erase.me%40example.com/erase", { method: "POST", cookie: cookies.support, body: { confirmEmail: "erase.me@example.com" } }),
      params({ project: "demo", email: "erase.me%40example.com" }),
    );
    expect(erased.status).toBe(200);
    expect(await recipient()).toEqual([]);
    expect(await (await exportMessages({ format: "ndjson" })).text()).not.toContain("erase.me@example.com");
  });
});

describe("contact export", () => {
  it("lists every contact of the search once, by keyset, ties included", async () => {
    const res = await CONTACTS_EXPORT(await apiRequest("/api/p/demo/contacts/export?format=csv", { cookie: cookies.support }), params({ project: "demo" }));
    const rows = csvRows(await res.text());
    expect(rows).toHaveLength(1_203);
    expect(new Set(rows.map((r) => r.id)).size).toBe(1_203);
    expect(rows.find((r) => r.id === "c7")!.first_name).toBe("'@SUM(A1)");
  });
});
