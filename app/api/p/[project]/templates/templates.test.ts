import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Mustache from "mustache";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { GET as ONE } from "@/app/api/p/[project]/templates/[id]/route";
import { POST as PREVIEW } from "@/app/api/p/[project]/templates/preview/route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * A service that lists no `variables` on its templates (a local-service extra), uses numeric
 * ids, and answers a preview with the rendered draft nested under `data.rendered`, html under
 * `body`, and nothing about variables.
 */
const TEMPLATE = { id: 31, name: "Welcome", subject: "Welcome to {{company}}, {{name}}!", html: "<h1>Hi {{name}}</h1>{{#items}}<li>{{title}}</li>{{/items}}", text: null, createdAt: "2026-01-01T00:00:00Z" };

let service: TestServer;
let close: () => Promise<void>;
let marketer: string;

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/v1/templates/31") return json(res, 200, TEMPLATE);
    if (url.pathname === "/v1/templates/preview") {
      const draft = JSON.parse(req.body) as { subject?: string; html?: string; data?: Record<string, unknown> };
      const render = (t?: string) => (t ? Mustache.render(t, draft.data ?? {}) : null);
      return json(res, 200, { data: { rendered: { subject: render(draft.subject), body: { html: render(draft.html) } } } });
    }
    json(res, 404, { title: "Not Found" });
  }));
  await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false });
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", allProjects: true, password: "correct horse battery" }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

describe("templates from a service that does not list their variables", () => {
  it("the template offers the variables its subject and html use", async () => {
    const res = await ONE(await apiRequest("/api/p/p1/templates/31", { cookie: marketer }), params({ project: "p1", id: "31" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "31", variables: ["company", "name", "items", "items[].title"] });
  });

  it("the preview is read from its nested shape, with variables and missing ones worked out by the dashboard", async () => {
    const body = { subject: TEMPLATE.subject, html: TEMPLATE.html, data: { name: "Ada" } };
    const res = await PREVIEW(await apiRequest("/api/p/p1/templates/preview", { method: "POST", cookie: marketer, body }), params({ project: "p1" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      subject: "Welcome to , Ada!",
      html: "<h1>Hi Ada</h1>",
      text: null,
      variables: ["company", "name", "items", "items[].title"],
      missing: ["company"],
    });
  });
});
