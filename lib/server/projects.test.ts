import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { listAudit, SYSTEM_ACTOR } from "./audit";
import { getProject, listProjectsForUser, registerProject, removeProject, updateProject } from "./projects";
import { registerServiceProjects } from "./startup";
import { json, type TestServer } from "./test-helpers";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { auditQuery } from "@/lib/schemas/audit";

/** Answers the one call registration makes, like the service: known projects list templates. */
let service: TestServer;
let close: () => Promise<void>;
const admin = { id: "u-admin", email: "admin@example.com" };

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    const project = req.headers["x-service-product"];
    if (!req.url.startsWith("/v1/templates")) return json(res, 404, { error: { message: "no route", code: "not_found" } });
    if (project === "demo" || project === "shop") return json(res, 200, { data: [], nextCursor: null });
    if (project === "broken") return json(res, 500, {});
    return json(res, 404, { error: { message: "Unknown project", code: "project_not_found", param: null } });
  }, { SERVICE_TIMEOUT_MS: "1000" }));
});
afterAll(() => close());

describe("registerProject", () => {
  it("checks the project with the service, then registers it", async () => {
    const p = await registerProject({ externalId: "demo", name: "Demo" }, admin);
    expect(p).toMatchObject({ externalId: "demo", name: "Demo" });
    const call = service.requests.at(-1)!;
    expect(call.url).toBe("/v1/templates?limit=1");
    expect(call.headers["x-service-product"]).toBe("demo");
    expect(await getProject("demo")).toEqual(p);
    const [entry] = (await listAudit(auditQuery.parse({ action: "project.register" }))).data;
    expect(entry).toMatchObject({ actorEmail: "admin@example.com", project: "demo", outcome: "success" });
  });

  it("refuses a project the service does not know, naming externalId", async () => {
    const e = (await registerProject({ externalId: "nope" }, admin).catch((err) => err)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect([e.status, e.code, e.param]).toEqual([400, "unknown_project", "externalId"]);
    expect(e.message).toMatch(/^externalId: /);
    expect(await getProject("nope")).toBeNull();
    expect((await listAudit(auditQuery.parse({ action: "project.register", outcome: "failure" }))).data[0].project).toBe("nope");
  });

  it("refuses a duplicate with 409 on externalId", async () => {
    const e = (await registerProject({ externalId: "demo" }, admin).catch((err) => err)) as AppError;
    expect([e.status, e.param]).toEqual([409, "externalId"]);
  });


  it("passes on a service outage rather than calling the project unknown", async () => {
    const e = (await registerProject({ externalId: "broken" }, admin).catch((err) => err)) as AppError;
    expect(e.status).toBeGreaterThanOrEqual(500);
  });

  it("renames and removes", async () => {
    const shop = await registerProject({ externalId: "shop" }, admin);
    expect(shop.name).toBe("shop");
    expect((await updateProject(shop.id, { name: "Shop" }, admin)).name).toBe("Shop");
    await removeProject(shop.id, admin);
    expect(await getProject("shop")).toBeNull();
    const e = (await removeProject(shop.id, admin).catch((err) => err)) as AppError;
    expect(e.status).toBe(404);
  });

  it("lists all projects or only the granted ones", async () => {
    const demo = (await getProject("demo"))!;
    expect((await listProjectsForUser({ allProjects: true, projectIds: [] })).map((p) => p.externalId)).toEqual(["demo"]);
    expect(await listProjectsForUser({ allProjects: false, projectIds: [] })).toEqual([]);
    expect(await listProjectsForUser({ allProjects: false, projectIds: [demo.id] })).toEqual([demo]);
  });
});

describe("registerServiceProjects (start-up)", () => {
  it("registers missing ids, registers unchecked when the service is down, logs refusals", async () => {
    const logs: string[] = [];
    const log = { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`), error: (m: string) => logs.push(`error ${m}`) };
    await registerServiceProjects(["demo", "shop", "broken", "unknown-one", "has space"], log as unknown as Console);
    expect(await getProject("shop")).not.toBeNull();
    expect(await getProject("broken")).not.toBeNull();
    expect(await getProject("unknown-one")).toBeNull();
    expect(logs).toEqual([
      "info Registered project shop",
      expect.stringMatching(/^warn Registered project broken without checking it/),
      expect.stringMatching(/^error Could not register project unknown-one: externalId:/),
      // The route's schema reads the environment's ids too (app/api/projects/route.test.ts checks the route's 400).
      expect.stringMatching(/^error Could not register project has space: .*externalId/s),
    ]);
    expect(await getProject("has space")).toBeNull();
    const system = (await listAudit(auditQuery.parse({ action: "project.register", project: "shop" }))).data[0];
    expect(system.actorEmail).toBe(SYSTEM_ACTOR.email);
  });
});
