import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../lib/accounts";
import { syncTemplates, type TemplateFile } from "../lib/template-files";
import { createTestService, type TestService } from "../test/harness";

let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
  await syncTemplates(svc.db); // the real files, into alpha and beta
});
afterAll(() => svc.close());

type T = { id: string; slug: string | null; name: string; subject: string; html: string | null; text: string | null; variables: string[] };

describe("GET /v1/templates", () => {
  it("lists the templates loaded from files, with their variables", async () => {
    const res = await svc.call("GET", "/v1/templates");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.nextCursor).toBeNull();
    const bySlug: Record<string, T> = Object.fromEntries(body.data.map((t: T) => [t.slug, t]));
    expect(Object.keys(bySlug).sort()).toEqual(["password-reset", "receipt", "welcome"]);
    expect(bySlug.welcome).toMatchObject({ name: "Welcome", subject: "Welcome to {{product}}, {{firstName}}!" });
    expect(bySlug.receipt.html).toContain("{{#items}}");
    expect(bySlug.receipt.variables).toEqual(expect.arrayContaining(["orderNumber", "items", "items[].name", "items[].price", "total"]));
  });

  it("pages through many templates in a stable order, and keeps projects apart", async () => {
    const t = await createTestService();
    try {
      const files: TemplateFile[] = Array.from({ length: 23 }, (_, i) => ({ slug: `t${i}`, name: `T${i}`, subject: "s", html: null, text: "x" }));
      await syncTemplates(t.db, files, [t.beta.id]);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await t.call("GET", `/v1/templates?limit=10${cursor ? `&cursor=${cursor}` : ""}`, { project: "beta" });
        const body = await res.json();
        seen.push(...body.data.map((x: T) => x.id));
        cursor = body.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toHaveLength(23);
      expect([...seen].sort().reverse()).toEqual(seen);
      expect((await (await t.call("GET", "/v1/templates")).json()).data).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("refuses a bad limit and cursor, a missing project, another project for a project key, a missing scope, a missing key", async () => {
    expect((await svc.call("GET", "/v1/templates?limit=0")).status).toBe(400);
    expect((await (await svc.call("GET", "/v1/templates?cursor=eA")).json()).error.param).toBe("cursor");
    expect((await (await svc.call("GET", "/v1/templates", { project: null })).json()).error.code).toBe("project_required");
    expect((await svc.call("GET", "/v1/templates", { project: null, headers: { "X-Service-Sender": "beta" } })).status).toBe(200);
    expect((await svc.call("GET", "/v1/templates", { key: svc.alphaKey, project: "beta" })).status).toBe(403);
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "s", scopes: ["emails:send"] });
    expect((await svc.call("GET", "/v1/templates", { key: secret })).status).toBe(403);
    expect((await svc.app.request("/v1/templates")).status).toBe(401);
  });
});

describe("GET /v1/templates/{id}", () => {
  it("finds a template by id (header optional) and by slug (project needed)", async () => {
    const list = await (await svc.call("GET", "/v1/templates")).json();
    const welcome: T = list.data.find((t: T) => t.slug === "welcome");
    const byId = await svc.call("GET", `/v1/templates/${welcome.id}`, { project: null });
    expect(byId.status).toBe(200);
    expect(await byId.json()).toEqual(welcome);
    expect(await (await svc.call("GET", "/v1/templates/welcome")).json()).toEqual(welcome);
    expect(await (await svc.call("GET", "/v1/templates/welcome", { key: svc.alphaKey, project: null })).json()).toEqual(welcome);
    const beta = await (await svc.call("GET", "/v1/templates/welcome", { project: "beta" })).json();
    expect(beta.id).not.toBe(welcome.id);

    const noProject = await svc.call("GET", "/v1/templates/welcome", { project: null });
    expect(noProject.status).toBe(400);
    expect((await noProject.json()).error).toMatchObject({ code: "project_required", param: "X-Service-Product" });
  });

  it("answers 404 for an unknown id or slug and for another project's template", async () => {
    expect((await svc.call("GET", "/v1/templates/tmpl_0000000000000000")).status).toBe(404);
    expect((await svc.call("GET", "/v1/templates/no-such-slug")).status).toBe(404);
    const beta = await (await svc.call("GET", "/v1/templates/receipt", { project: "beta" })).json();
    const res = await svc.call("GET", `/v1/templates/${beta.id}`, { key: svc.alphaKey, project: null });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatchObject({ code: "not_found", param: "id" });
    expect((await svc.call("GET", `/v1/templates/${beta.id}`, { project: "alpha" })).status).toBe(404);
  });

  it("keeps ids when the files are loaded again, and takes changes from them", async () => {
    const before = await (await svc.call("GET", "/v1/templates/welcome")).json();
    await syncTemplates(svc.db);
    await syncTemplates(svc.db, [{ slug: "welcome", name: "Welcome v2", subject: "Hi {{firstName}}", html: null, text: "Hi" }], [svc.beta.id]);
    expect(await (await svc.call("GET", "/v1/templates/welcome")).json()).toEqual(before);
    const beta = await (await svc.call("GET", "/v1/templates/welcome", { project: "beta" })).json();
    expect(beta).toMatchObject({ name: "Welcome v2", subject: "Hi {{firstName}}", html: null, text: "Hi", variables: ["firstName"] });
    await syncTemplates(svc.db); // back to the files
    expect((await (await svc.call("GET", "/v1/templates?limit=100", { project: "beta" })).json()).data).toHaveLength(3);
  });
});

describe("POST /v1/templates/preview", () => {
  it("renders a draft with escaping, raw values and list sections, and reports variables and missing ones", async () => {
    const res = await svc.call("POST", "/v1/templates/preview", {
      body: {
        subject: "Order {{order}} for {{name}}",
        html: "<p>{{name}}</p>{{{footer}}}<ul>{{#items}}<li>{{title}}: {{price}}</li>{{/items}}</ul>",
        text: "{{name}}",
        data: { name: "<Ann>", footer: "<hr>", items: [{ title: "Tea", price: "3" }, { title: "Cup" }] },
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      subject: "Order  for <Ann>",
      html: "<p>&lt;Ann&gt;</p><hr><ul><li>Tea: 3</li><li>Cup: </li></ul>",
      text: "<Ann>",
      variables: ["order", "name", "footer", "items", "items[].title", "items[].price"],
      missing: ["order", "items[].price"],
    });
  });

  it("answers nulls for an empty draft", async () => {
    const res = await svc.call("POST", "/v1/templates/preview", { body: {} });
    expect(await res.json()).toEqual({ subject: null, html: null, text: null, variables: [], missing: [] });
  });

  it("answers 400 naming the part that does not parse, or the field of the wrong type", async () => {
    const res = await svc.call("POST", "/v1/templates/preview", { body: { html: "{{#a}}" } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "template_syntax_error", param: "html" });
    const data = await svc.call("POST", "/v1/templates/preview", { body: { text: "x", data: "nope" } });
    expect((await data.json()).error).toMatchObject({ code: "validation_error", param: "data" });
    const subject = await svc.call("POST", "/v1/templates/preview", { body: { subject: 1 } });
    expect((await subject.json()).error.param).toBe("subject");
  });

  it("needs a project and the templates:read scope", async () => {
    expect((await svc.call("POST", "/v1/templates/preview", { project: null, body: {} })).status).toBe(400);
    expect((await svc.call("POST", "/v1/templates/preview", { key: svc.alphaKey, project: null, body: {} })).status).toBe(200);
    const { secret } = await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "p", scopes: ["contacts:read"] });
    expect((await svc.call("POST", "/v1/templates/preview", { key: secret, body: {} })).status).toBe(403);
  });
});
