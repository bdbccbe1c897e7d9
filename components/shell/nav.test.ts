import { describe, expect, it } from "vitest";
import { ADMIN_SCREENS, isActive, looksLikeMessageId, PROJECT_SCREENS, projectFromPath, projectHref, screenPermission, switchProjectPath, visibleAdminScreens, visibleProjectScreens } from "@/components/shell/nav";
import { screenRoutes } from "@/e2e/support/routes";
import * as nav from "@/lib/nav";

describe("switchProjectPath", () => {
  it("keeps the screen and drops the record under it", () => {
    expect(switchProjectPath("/p/acme/messages/msg_123", "globex")).toBe("/p/globex/messages");
    expect(switchProjectPath("/p/acme/domains", "globex")).toBe("/p/globex/domains");
    expect(switchProjectPath("/p/acme", "globex")).toBe("/p/globex");
    expect(switchProjectPath("/p/acme/", "globex")).toBe("/p/globex");
  });

  it("goes to the overview from anywhere else", () => {
    expect(switchProjectPath("/admin/users", "globex")).toBe("/p/globex");
    expect(switchProjectPath("/p/acme/unknown-thing", "globex")).toBe("/p/globex");
  });

  it("encodes the project", () => {
    expect(projectHref("a b", "messages")).toBe("/p/a%20b/messages");
    expect(projectFromPath("/p/a%20b/messages")).toBe("a b");
    expect(projectFromPath("/admin/users")).toBeNull();
  });
});

const everyProject = (role: "admin" | "support" | "marketer") => ({ role, allProjects: true });

describe("role-aware screens", () => {
  it("shows support no keys, webhooks or admin screens", () => {
    const keys = visibleProjectScreens(everyProject("support")).map((s) => s.key);
    expect(keys).toContain("messages");
    expect(keys).toContain("compose");
    expect(keys).not.toContain("api-keys");
    expect(keys).not.toContain("webhooks");
    expect(keys).not.toContain("batches");
    expect(visibleAdminScreens(everyProject("support"))).toEqual([]);
  });

  it("shows marketers batches but not keys", () => {
    const keys = visibleProjectScreens(everyProject("marketer")).map((s) => s.key);
    expect(keys).toContain("batches");
    expect(keys).not.toContain("api-keys");
  });

  it("shows admins everything", () => {
    expect(visibleProjectScreens(everyProject("admin"))).toHaveLength(14);
    expect(visibleAdminScreens(everyProject("admin")).map((s) => s.href)).toEqual(["/admin/users", "/admin/projects", "/admin/audit"]);
  });

  it("shows an admin limited to some projects every project screen but no admin screen", () => {
    const limited = { role: "admin" as const, allProjects: false };
    expect(visibleProjectScreens(limited)).toHaveLength(14);
    expect(visibleAdminScreens(limited)).toEqual([]);
  });
});

describe("helpers", () => {
  it("marks the current link", () => {
    expect(isActive("/p/acme/messages/m1", "/p/acme/messages")).toBe(true);
    expect(isActive("/p/acme/messages-old", "/p/acme/messages")).toBe(false);
    expect(isActive("/p/acme/messages", "/p/acme", true)).toBe(false);
  });

  it("recognises pasted message ids but not screen names", () => {
    expect(looksLikeMessageId("4f9a2c1e-8b7d-4e2a-9c3f-1a2b3c4d5e6f")).toBe(true);
    expect(looksLikeMessageId(" msg_01HZX3K9 ")).toBe(true);
    expect(looksLikeMessageId("messages")).toBe(false);
    expect(looksLikeMessageId("two words 123")).toBe(false);
  });
});

describe("screenPermission", () => {
  // The layouts refuse with it before a page streams: it must say what each page's own
  // guardPage() says, for every page that exists (read from app/).
  it("matches the permission every page shell declares", () => {
    const checked = screenRoutes().filter((s) => s.permission);
    expect(checked.length).toBeGreaterThan(15);
    for (const screen of checked) {
      const url = screen.pattern.replace(/\[[^\]]+\]/g, "x1");
      expect(screenPermission(url), screen.pattern).toBe(screen.permission);
    }
  });

  it("ignores the query and knows no permission for paths that are no screen", () => {
    expect(screenPermission("/p/acme/api-keys?x=1")).toBe("api_keys:write");
    expect(screenPermission("/p/acme")).toBe("overview:read");
    expect(screenPermission("/admin")).toBeNull();
    expect(screenPermission("/p/acme/nothing-here")).toBeNull();
  });
});


describe("screens and their icons", () => {
  it("gives every screen of lib/nav.ts an icon of its own", () => {
    const screens = [...PROJECT_SCREENS, ...ADMIN_SCREENS];
    expect(screens.map((s) => s.key)).toEqual([...nav.PROJECT_SCREENS, ...nav.ADMIN_SCREENS].map((s) => s.key));
    expect(new Set(screens.map((s) => s.icon)).size).toBe(screens.length);
  });
});
