import type { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as endSessions } from "@/app/api/admin/users/[id]/sessions/route";
import { GET as getJob } from "@/app/api/p/[project]/batches/[id]/route";
import { GET as getMessage } from "@/app/api/p/[project]/messages/[id]/route";
import { GET as getAttachment } from "@/app/api/p/[project]/messages/[id]/attachments/[attachmentId]/route";
import { GET as getRecipient } from "@/app/api/p/[project]/recipients/[email]/route";
import { GET as getTemplate } from "@/app/api/p/[project]/templates/[id]/route";
import { DELETE as deleteSample } from "@/app/api/p/[project]/templates/[id]/samples/[sampleId]/route";
import { DELETE as deleteWebhook } from "@/app/api/p/[project]/webhooks/[id]/route";
import { DELETE as removeProject } from "@/app/api/projects/[id]/route";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Every path parameter is declared with its kind's schema (lib/schemas/params.ts) and checked
 * by route() after the guard and before any other query or service call: a malformed one is a
 * 400 naming the parameter, as a body field is. A well-formed id that names nothing keeps its 404.
 */
let close: () => Promise<void>;
let service: TestServer;
let admin: string;
let setupCalls = 0;

beforeAll(async () => {
  // Whatever the service is asked answers 404: the well-formed unknown ids below.
  ({ service, close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "not found", code: "not_found" } })));
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  setupCalls = service.requests.length;
});
afterAll(() => close());

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

async function answer<P extends Record<string, string>>(handler: Handler<P>, method: string, url: string, p: P) {
  const res = await handler(await apiRequest(url, { method, cookie: admin }), params(p));
  const body = (await res.json()) as { error: { code: string; param: string | null; message: string } };
  return { status: res.status, code: body.error.code, param: body.error.param, message: body.error.message };
}

const LONG = "m".repeat(201);

describe("a malformed path parameter is a 400 naming it", () => {
  it("a service id: too long, or holding a control character", async () => {
    expect(await answer(getMessage, "GET", "/api/p/demo/messages/x", { project: "demo", id: LONG })).toEqual({
      status: 400,
      code: "validation_error",
      param: "id",
      message: "id: must be at most 200 characters",
    });
    expect(await answer(getTemplate, "GET", "/api/p/demo/templates/x", { project: "demo", id: "t\u0007" })).toMatchObject({ status: 400, param: "id" });
    expect(await answer(getAttachment, "GET", "/api/p/demo/messages/m/attachments/x", { project: "demo", id: "m1", attachmentId: "" })).toMatchObject({
      status: 400,
      param: "attachmentId",
      message: "attachmentId: is required",
    });
  });

  it("a dashboard record id (user, project, batch job, sample): letters, digits, dashes", async () => {
    const record = { status: 400, code: "validation_error", param: "id", message: "id: may contain only letters, digits, dashes and underscores" };
    expect(await answer(endSessions, "DELETE", "/api/admin/users/x", { id: "a b" })).toEqual(record);
    expect(await answer(removeProject, "DELETE", "/api/projects/x", { id: "../x" })).toEqual(record);
    expect(await answer(getJob, "GET", "/api/p/demo/batches/x", { project: "demo", id: "job;1" })).toEqual(record);
    expect(await answer(deleteSample, "DELETE", "/api/p/demo/templates/t/samples/x", { project: "demo", id: "t1", sampleId: "s 1" })).toMatchObject({ status: 400, param: "sampleId" });
  });

  it("an email in the path, decoded once", async () => {
    expect(await answer(getRecipient, "GET", "/api/p/demo/recipients/x", { project: "demo", email: "not-an-address" })).toMatchObject({ status: 400, param: "email" });
  });

  it("a project too long to be one is the guard's one 404, as any project it does not find", async () => {
    expect(await answer(getMessage, "GET", "/api/p/x/messages/m", { project: "p".repeat(601), id: "m1" })).toMatchObject({ status: 404, code: "project_not_found" });
  });

  it("and none of these reached the service", () => {
    expect(service.requests.slice(setupCalls).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});

describe("a well-formed id that names nothing keeps its 404", () => {
  it("as the lookup answers it", async () => {
    expect(await answer(endSessions, "DELETE", "/api/admin/users/x", { id: "0b7c1f3e-9d7a-4c43-9a4e-1f2b3c4d5e6f" })).toMatchObject({ status: 404, code: "not_found" });
    expect(await answer(removeProject, "DELETE", "/api/projects/x", { id: "nope" })).toMatchObject({ status: 404, code: "not_found" });
    expect(await answer(getJob, "GET", "/api/p/demo/batches/x", { project: "demo", id: "0123456789abcdef" })).toMatchObject({ status: 404, code: "not_found" });
    expect((await answer(getTemplate, "GET", "/api/p/demo/templates/x", { project: "demo", id: "tpl_none" })).status).toBe(404);
    expect(await answer(getMessage, "GET", "/api/p/nope/messages/m", { project: "nope", id: "m1" })).toMatchObject({ status: 404, code: "project_not_found" });
  });
});

describe("the order route() reads a declared input in", () => {
  it("path parameters and the body after the guard: a stranger learns nothing of their rules", async () => {
    const signedOut = async (id: string, body: unknown) => {
      const res = await deleteWebhook(await apiRequest("/api/p/demo/webhooks/x", { method: "DELETE", body }), params({ project: "demo", id }));
      return { status: res.status, param: ((await res.json()) as { error: { param: string | null } }).error.param };
    };
    expect(await signedOut(LONG, {})).toEqual({ status: 401, param: null });
    expect(await signedOut("wh_1", { confirmUrl: 42 })).toEqual({ status: 401, param: null });
  });
});
