import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { staticFiles, staticPackages } from "@/lib/test/static-imports";
import { AppError } from "@/lib/errors";
import { firstLoad, optionalPart } from "./first-load";

/** Libraries a screen should load only on use (issue 14: page weight). */
const FORM_LIBRARIES = ["zod", "react-hook-form", "@hookform/resolvers", "@radix-ui/react-dialog"];

/**
 * `file` loads none of `names` with its first render. With `seesReact`, the walk is first seen
 * to reach react, so an empty walk cannot pass.
 */
function expectLoadsNone(file: string, names: string[], { seesReact }: { seesReact: boolean }) {
  const packages = staticPackages(file);
  if (seesReact) expect(packages.has("react")).toBe(true);
  for (const name of names) expect(packages, name).not.toContain(name);
}

describe("first-load imports", () => {
  it("the sign-in form loads no form or schema library", () => {
    expectLoadsNone("app/(auth)/login/login-form.tsx", [...FORM_LIBRARIES, "sonner", "lucide-react", "@tanstack/react-query", "radix-ui", "@radix-ui/react-slot"], { seesReact: true });
  });

  it("the boundaries and layout every signed-out page loads bring no router link, icon component or slot", () => {
    const errorPage = staticPackages("app/error.tsx");
    expect(errorPage.has("react")).toBe(true);
    for (const name of ["next", "lucide-react", "radix-ui", "tailwind-merge"]) expect(errorPage, name).not.toContain(name);
    for (const file of ["app/not-found.tsx", "app/forbidden.tsx", "app/(auth)/layout.tsx"]) {
      const packages = staticPackages(file);
      for (const name of ["next", "lucide-react", "radix-ui"]) expect(packages, `${file}: ${name}`).not.toContain(name);
    }
  });

  it.each([
    "app/(dashboard)/admin/users/create-user-dialog.tsx",
    "app/(dashboard)/admin/projects/register-project-dialog.tsx",
    "app/(dashboard)/p/[project]/domains/add-domain-dialog.tsx",
    "app/(dashboard)/p/[project]/api-keys/create-key-dialog.tsx",
    "app/(dashboard)/p/[project]/webhooks/create-webhook-dialog.tsx",
    "app/(dashboard)/p/[project]/contacts/create-contact-dialog.tsx",
    "app/(dashboard)/p/[project]/suppressions/add-suppression-dialog.tsx",
  ])("%s shows its button without the dialog's form libraries", (file) => {
    expectLoadsNone(file, FORM_LIBRARIES, { seesReact: true });
  });

  it.each([
    ["app/(dashboard)/p/[project]/domains/[id]/page.tsx", "app/api/p/[project]/domains/[id]/check/route.ts", "checkDomain", "initialCheck"],
    ["app/(dashboard)/p/[project]/templates/[id]/page.tsx", "app/api/p/[project]/checks/route.ts", "presendChecks", "initialChecks"],
  ])("%s hands its screen the first check from the route's own server function, so the screen parses (and loads zod for) none on its first load", (page, route, serverFunction, prop) => {
    const root = path.resolve(__dirname, "../..");
    const shell = readFileSync(path.join(root, page), "utf8");
    expect(readFileSync(path.join(root, route), "utf8")).toMatch(new RegExp(`\\b${serverFunction}\\(`));
    expect(shell).toMatch(new RegExp(`\\b${serverFunction}\\w*\\(`));
    expect(shell).toMatch(new RegExp(`\\b${prop}=\\{`));
  });

  it.each(["app/(dashboard)/p/[project]/domains/[id]/domain-screen.tsx", "components/presend/checks-panel.tsx", "components/presend/presend-checks.tsx"])("%s (the checks' panels) does not load zod", (file) => {
    const packages = staticPackages(file);
    expect(packages.has("react")).toBe(true);
    expect(packages).not.toContain("zod");
  });

  it.each(["components/batches/file-source.tsx", "app/(dashboard)/admin/audit/audit-filters.tsx", "app/(dashboard)/p/[project]/domains/domains-screen.tsx", "components/batches/job-rows.tsx", "app/(dashboard)/p/[project]/overview-screen.tsx"])(
    "%s does not load zod",
    (file) => expect(staticPackages(file)).not.toContain("zod"),
  );

  it.each([
    "app/(dashboard)/admin/users/users-screen.tsx",
    "app/(dashboard)/admin/projects/projects-screen.tsx",
    "app/(dashboard)/p/[project]/contacts/[id]/contact-screen.tsx",
    "app/(dashboard)/p/[project]/api-keys/api-keys-screen.tsx",
    "app/(dashboard)/p/[project]/webhooks/webhooks-screen.tsx",
    "app/(dashboard)/p/[project]/batches/batch-wizard.tsx",
  ])("%s loads its row menus and confirmations (radix menu, dialogs, forms) on use", (file) => {
    expectLoadsNone(file, [...FORM_LIBRARIES, "@radix-ui/react-alert-dialog", "@radix-ui/react-dropdown-menu"], { seesReact: false });
  });

  it.each([
    "app/(dashboard)/p/[project]/alerts/alerts-screen.tsx",
    "app/(dashboard)/p/[project]/compose/compose-screen.tsx",
    "app/(dashboard)/p/[project]/inbound/simulate/simulate-form.tsx",
    "app/(dashboard)/p/[project]/messages/[id]/message-screen.tsx",
    "app/(dashboard)/p/[project]/templates/[id]/template-screen.tsx",
  ])("%s checks its form with zod loaded on the first check, not with the screen", (file) => {
    expectLoadsNone(file, ["zod", "@hookform/resolvers", "@radix-ui/react-dialog"], { seesReact: false });
  });

  it.each(["app/(dashboard)/p/[project]/batches/batch-wizard.tsx", "app/(dashboard)/p/[project]/contacts/import/import-form.tsx"])(
    "%s loads the CSV parser with the first file or paste, not with the screen",
    (file) => {
      expect(staticPackages(file)).not.toContain("papaparse");
      expect(staticPackages("lib/batch/csv.ts")).toContain("papaparse");
    },
  );

  it.each(["components/ui/form.tsx", "components/common/filters.tsx"])("%s draws its labels without radix", (file) => {
    expectLoadsNone(file, ["radix-ui", "@radix-ui/react-label", "@radix-ui/react-slot"], { seesReact: true });
  });

  it("the template screen (switches, tabs) loads no radix", () => {
    expectLoadsNone("app/(dashboard)/p/[project]/templates/[id]/template-screen.tsx", ["radix-ui", "@radix-ui/react-switch", "@radix-ui/react-tabs"], { seesReact: true });
  });

  it("tabs (message body, template variables) are drawn without radix", () => {
    expect(staticPackages("components/ui/tabs.tsx").has("react")).toBe(true);
    for (const name of ["radix-ui", "@radix-ui/react-tabs"]) expect(staticPackages("app/(dashboard)/p/[project]/messages/[id]/message-body.tsx"), name).not.toContain(name);
  });

  it("the alerts screen loads the thresholds' editor (react-hook-form) when an admin asks to change them", () => {
    const packages = staticPackages("app/(dashboard)/p/[project]/alerts/alerts-screen.tsx");
    expect(packages.has("@tanstack/react-query")).toBe(true);
    expect(packages).not.toContain("react-hook-form");
    expect(staticPackages("app/(dashboard)/p/[project]/alerts/alert-settings-form.tsx")).toContain("react-hook-form");
  });

  it("compose loads the date library with the schedule for later, not with the screen, and keeps its form without react-hook-form", () => {
    expectLoadsNone("app/(dashboard)/p/[project]/compose/compose-screen.tsx", ["date-fns", "@date-fns/tz", "react-hook-form"], { seesReact: true });
    expect(staticPackages("app/(dashboard)/p/[project]/compose/schedule-later.tsx")).toContain("date-fns");
  });

  it("the project frame's alert banner loads its words and icons only when the alerts change in the browser; the page's come drawn by the server", () => {
    expect(staticPackages("app/(dashboard)/p/[project]/alert-banner.tsx")).toContain("@tanstack/react-query");
    expect(staticPackages("app/(dashboard)/p/[project]/alert-banner.tsx")).not.toContain("lucide-react");
    expect(staticPackages("app/(dashboard)/p/[project]/alert-banner-list.tsx")).toContain("lucide-react");
    const root = path.resolve(__dirname, "../..");
    // Not a client module: rendered by the layout, it is server output, not a client chunk.
    expect(readFileSync(path.join(root, "app/(dashboard)/p/[project]/alert-banner-list.tsx"), "utf8")).not.toMatch(/^["']use client["']/m);
    expect(readFileSync(path.join(root, "app/(dashboard)/p/[project]/layout.tsx"), "utf8")).toMatch(/shown=\{[^}]*<AlertBannerList /);
  });

  it("the message screen, which lists no messages, does not load the messages table (its direction label and links have files of their own)", () => {
    const files = staticFiles("app/(dashboard)/p/[project]/messages/[id]/message-screen.tsx");
    expect(files).toContain("components/messages/direction-label.tsx"); // the walk does see it
    expect(files).not.toContain("components/messages/messages-table.tsx");
    expect(files).not.toContain("components/ui/table.tsx");
  });

  it("the message screen loads the reply form's form library only where it draws the form", () => {
    expect(staticPackages("app/(dashboard)/p/[project]/messages/[id]/message-screen.tsx")).not.toContain("react-hook-form");
    expect(staticPackages("app/(dashboard)/p/[project]/messages/[id]/reply-form.tsx")).toContain("react-hook-form");
  });

  it.each([
    "app/(dashboard)/admin/users/users-screen.tsx",
    "app/(dashboard)/p/[project]/domains/domains-screen.tsx",
    "app/(dashboard)/p/[project]/messages/messages-screen.tsx",
    "app/(dashboard)/admin/audit/audit-screen.tsx",
  ])("%s draws its filter selects without radix select until one is opened", (file) => {
    expect(staticPackages(file)).not.toContain("@radix-ui/react-select");
    expect(staticPackages(file)).not.toContain("@radix-ui/react-popover");
    expect(staticPackages("components/common/filter-select-menu.tsx")).toContain("@radix-ui/react-select");
  });

  it("the forms themselves do load them (the walk finds what is there)", () => {
    expect(staticPackages("app/(dashboard)/p/[project]/suppressions/add-suppression-dialog-form.tsx")).toContain("zod");
    expect(staticPackages("app/(dashboard)/p/[project]/suppressions/add-suppression-dialog-form.tsx")).toContain("@radix-ui/react-dialog");
    expect(staticPackages("components/common/confirm-dialog-content.tsx")).toContain("@radix-ui/react-alert-dialog");
    expect(staticPackages("app/(dashboard)/admin/users/user-actions-menu.tsx")).toContain("@radix-ui/react-dropdown-menu");
  });

  it("toasts come from components/ui/toast: sonner imported anywhere else shows nothing, its toaster being mounted on the first toast only", () => {
    const root = path.resolve(__dirname, "../..");
    const files = ["app", "components", "lib"].flatMap((dir) =>
      (readdirSync(path.join(root, dir), { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f)),
    );
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => f !== path.join("components", "ui", "sonner.tsx") && /^import\s+\{(?!\s*type\b)[^}]*\}\s+from\s+"sonner"/m.test(readFileSync(path.join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it.each(["app/(dashboard)/p/[project]/messages/[id]/message-body.tsx", "app/(dashboard)/p/[project]/templates/[id]/preview-panel.tsx", "app/(dashboard)/p/[project]/compose/review-dialog-content.tsx"])(
    "%s loads the email frame's html tokenizer on use, not with the screen",
    (file) => {
      expect(staticPackages("lib/messages/email-html.ts")).toContain("htmlparser2"); // the walk does see it
      const packages = staticPackages(file);
      expect(packages.has("react")).toBe(true);
      expect(packages).not.toContain("htmlparser2");
    },
  );

  it("the frame's own chunk (sandboxed-frame.tsx) holds no tokenizer: html the server rewrote is drawn without it, any other loads it then", () => {
    const frame = staticPackages("components/messages/sandboxed-frame.tsx");
    expect(frame.has("react")).toBe(true);
    expect(frame).not.toContain("htmlparser2");
    expect(frame).not.toContain("entities");
  });

  it("the template page hands its screen the first preview's html rewritten for the frames (in the worker, html-rewrite-pool.ts), so they draw it without the rewriter", () => {
    const root = path.resolve(__dirname, "../..");
    const shell = readFileSync(path.join(root, "app/(dashboard)/p/[project]/templates/[id]/page.tsx"), "utf8");
    expect(shell).toMatch(/\brewriteForFirstRender\(/);
    expect(shell).not.toMatch(/\brewriteEmailHtml\(/); // never on the request thread
    expect(shell).toMatch(/\binitialFrame=\{/);
    expect(readFileSync(path.join(root, "app/(dashboard)/p/[project]/templates/[id]/template-screen.tsx"), "utf8")).toMatch(/<PreparedEmailHtmlProvider value=\{initialFrame\}>/);
  });

  it("the message page hands its screen the html rewritten in a worker (html-rewrite-pool.ts), so the frame draws it without the rewriter", () => {
    const root = path.resolve(__dirname, "../..");
    const shell = readFileSync(path.join(root, "app/(dashboard)/p/[project]/messages/[id]/page.tsx"), "utf8");
    expect(shell).toMatch(/\brewriteForFirstRender\(/);
    expect(shell).not.toMatch(/\brewriteEmailHtml\(/); // never on the request thread
    expect(shell).toMatch(/\binitialFrame=\{initialFrame\}/);
    expect(readFileSync(path.join(root, "app/(dashboard)/p/[project]/messages/[id]/message-screen.tsx"), "utf8")).toMatch(/<PreparedEmailHtmlProvider value=\{prepared\}>\s*<MessageBody /);
  });

  it("the pre-send checks panel loads with React.lazy: next/dynamic's loader is no part of the template or compose screen's first load", () => {
    const packages = staticPackages("components/presend/presend-checks.tsx");
    expect(packages.has("react")).toBe(true);
    expect(packages).not.toContain("next");
  });

  it("the template screen keeps react-hook-form off its first load (the samples bar's one field keeps its own state)", () => {
    expectLoadsNone("app/(dashboard)/p/[project]/templates/[id]/template-screen.tsx", ["react-hook-form", "@hookform/resolvers"], { seesReact: true });
  });
});

describe("firstLoad: a page's first data or why it failed (rule 3)", () => {
  it("hands over the data, or an AppError as plain data the screen shows", async () => {
    expect(await firstLoad(Promise.resolve([1]))).toEqual({ data: [1], error: null });
    const failed = await firstLoad(Promise.reject(new AppError(502, "service_unreachable", "The email service did not answer.", null, "c-1")));
    expect(failed).toEqual({ data: undefined, error: { name: "AppError", status: 502, code: "service_unreachable", message: "The email service did not answer.", param: null, correlationId: "c-1" } });
    expect(Object.getPrototypeOf(failed.error)).toBe(Object.prototype); // crosses to a client component
  });

  it("lets anything but an AppError through to the error boundary (a bug is not a reason to show)", async () => {
    await expect(firstLoad(Promise.reject(new TypeError("x is undefined")))).rejects.toThrow("x is undefined");
  });

  it("optionalPart turns a failed part into null", async () => {
    expect(await optionalPart(Promise.reject(new Error("slow DNS")))).toBeNull();
    expect(await optionalPart(Promise.resolve("ok"))).toBe("ok");
  });
});
