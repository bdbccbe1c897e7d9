import { api, expect, expectRefused, test, visit } from "./fixtures";
import { authFile, run } from "./support/run";

/** Domains, keys and webhooks are admins' work: hidden or disabled on screen, refused by the routes. */
const [project] = run.projects;

for (const role of ["support", "marketer"] as const) {
  test.describe(`${role}`, () => {
    test.use({ storageState: authFile(role) });

    test(`cannot create keys, webhooks or domains, on screen or through the routes`, async ({ page }) => {
      const key = await api(page, "POST", `/api/p/${project}/api-keys`, { name: "x", reach: "project", scopes: ["emails:send"] });
      expect(key.status).toBe(403);
      const hook = await api(page, "POST", `/api/p/${project}/webhooks`, { url: "https://hooks.example.com/x", eventTypes: ["delivery"] });
      expect(hook.status).toBe(403);
      const domain = await api(page, "POST", `/api/p/${project}/domains`, { domain: "refused.test" });
      expect(domain.status).toBe(403);
      expect((await api(page, "GET", `/api/p/${project}/api-keys`)).status).toBe(403);
      expect((await api(page, "GET", `/api/p/${project}/webhooks`)).status).toBe(403);
      for (const screen of ["api-keys", "webhooks"]) {
        await expectRefused(page, await visit(page, `/p/${project}/${screen}`), `${role} on ${screen}`);
        await expect(page.getByRole("button", { name: /Create API key|Add webhook/ })).toHaveCount(0);
      }

      // Domains are readable by everyone; adding one is disabled with the reason.
      expect(await visit(page, `/p/${project}/domains`)).toBe(200);
      await expect(page.getByRole("button", { name: "Add domain" }).first()).toBeDisabled();
      // Suppressions: everyone reads, support adds, marketers are refused.
      expect(await visit(page, `/p/${project}/suppressions`)).toBe(200);
      const add = await api(page, "POST", `/api/p/${project}/suppressions`, { email: "x@example.com", reason: "manual" });
      expect(add.status).toBe(role === "support" ? 201 : 403);
      if (role === "marketer") await expect(page.getByRole("button", { name: "Add suppression" }).first()).toBeDisabled();
    });
  });
}
