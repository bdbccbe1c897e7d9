import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/ingest/[project]/route";
import { GET as getContact } from "@/app/api/p/[project]/contacts/[id]/route";
import { POST as createContact } from "@/app/api/p/[project]/contacts/route";
import { GET as listMessages } from "@/app/api/p/[project]/messages/route";
import { GET as getMessage } from "@/app/api/p/[project]/messages/[id]/route";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Finding 8 of the security review: a NUL byte in an id, the project, a search or any string
 * field reached the database (which refuses it) and came back as a 500. Each is a 400 naming
 * the field, before any query or service call.
 */
let close: () => Promise<void>;
let service: TestServer;
let admin: string;
/** Service calls made while setting up (registering a project connects its event stream). */
let setupCalls = 0;

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((_req, res) => json(res, 500, { error: { message: "the service must not be called", code: "unexpected" } })));
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  setupCalls = service.requests.length;
});
afterAll(() => close());

async function errorOf(res: Response) {
  return { status: res.status, ...((await res.json()) as { error: { code: string; param: string | null; message: string } }).error };
}

describe("NUL characters are a 400 naming the field", () => {
  it("in the project of the URL, signed in or not", async () => {
    const signedIn = await listMessages(await apiRequest("/api/p/de%00mo/messages", { cookie: admin }), params({ project: "de\u0000mo" }));
    expect(await errorOf(signedIn)).toMatchObject({ status: 400, code: "validation_error", param: "project" });
    const signedOut = await listMessages(await apiRequest("/api/p/de%00mo/messages"), params({ project: "de\u0000mo" }));
    expect(await errorOf(signedOut)).toMatchObject({ status: 400, param: "project" });
  });

  it("in an id", async () => {
    expect(await errorOf(await getMessage(await apiRequest("/api/p/demo/messages/%00", { cookie: admin }), params({ project: "demo", id: "\u0000" })))).toMatchObject({ status: 400, param: "id" });
    expect(await errorOf(await getContact(await apiRequest("/api/p/demo/contacts/c%00", { cookie: admin }), params({ project: "demo", id: "c\u0000" })))).toMatchObject({ status: 400, param: "id" });
  });

  it("in the search and other query parameters", async () => {
    const res = await listMessages(await apiRequest("/api/p/demo/messages?q=ada%00", { cookie: admin }), params({ project: "demo" }));
    const e = await errorOf(res);
    expect(e).toMatchObject({ status: 400, code: "validation_error", param: "q" });
    expect(e.message).toBe("q: must not contain a NUL character (\\u0000)");
  });

  it("in any string of a JSON body", async () => {
    const res = await createContact(await apiRequest("/api/p/demo/contacts", { method: "POST", cookie: admin, body: { email: "ada@example.com", firstName: "A\u0000da" } }), params({ project: "demo" }));
    expect(await errorOf(res)).toMatchObject({ status: 400, param: "firstName" });
  });

  it("in the project of the ingest route (no sign-in there)", async () => {
    const res = await ingest(new Request("http://localhost:3000/api/ingest/x", { method: "POST", body: "{}" }), { params: Promise.resolve({ project: "de\u0000mo" }) });
    expect(await errorOf(res)).toMatchObject({ status: 400, code: "validation_error", param: "project" });
  });

  it("in a body that is nothing but a string holding one, naming the body", async () => {
    const res = await createContact(await apiRequest("/api/p/demo/contacts", { method: "POST", cookie: admin, body: JSON.stringify("\u0000") }), params({ project: "demo" }));
    expect(await errorOf(res)).toMatchObject({ status: 400, param: "body", message: "body: must not contain a NUL character (\\u0000)" });
  });

  it("and nothing reached the service", () => {
    // The event stream's connection is retried in the background (this service refuses it):
    // not a request of the probes above.
    const probes = service.requests.slice(setupCalls).filter((r) => !new URL(r.url, "http://x").pathname.startsWith("/v1/webhooks"));
    expect(probes.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});

describe("malformed bodies", () => {
  it("names the body for JSON that does not parse or nests too deep", async () => {
    const bad = await createContact(await apiRequest("/api/p/demo/contacts", { method: "POST", cookie: admin, body: "{\"email\":" }), params({ project: "demo" }));
    expect(await errorOf(bad)).toMatchObject({ status: 400, code: "invalid_json", param: "body" });
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = [deep];
    const nested = await createContact(await apiRequest("/api/p/demo/contacts", { method: "POST", cookie: admin, body: { email: "ada@example.com", metadata: { deep } } }), params({ project: "demo" }));
    expect(await errorOf(nested)).toMatchObject({ status: 400, code: "validation_error" });
  });
});
