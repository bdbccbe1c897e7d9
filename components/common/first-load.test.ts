import { describe, expect, it } from "vitest";
import { staticPackages } from "@/lib/test/static-imports";

/** Libraries a screen should load only on use (issue 14: page weight). */
const FORM_LIBRARIES = ["zod", "react-hook-form", "@hookform/resolvers", "@radix-ui/react-dialog"];

describe("first-load imports", () => {
  it("the sign-in form loads no form or schema library", () => {
    const packages = staticPackages("app/(auth)/login/login-form.tsx");
    expect(packages.has("react")).toBe(true); // the walk does see packages
    for (const name of [...FORM_LIBRARIES, "sonner", "lucide-react", "@tanstack/react-query"]) expect(packages, name).not.toContain(name);
  });

  it.each([
    "app/(dashboard)/admin/users/create-user-dialog.tsx",
    "app/(dashboard)/admin/projects/register-project-dialog.tsx",
    "app/(dashboard)/p/[project]/domains/add-domain-dialog.tsx",
    "components/keys/create-key-dialog.tsx",
    "components/webhooks/create-webhook-dialog.tsx",
    "components/contacts/create-contact-dialog.tsx",
    "components/suppressions/add-suppression-dialog.tsx",
  ])("%s shows its button without the dialog's form libraries", (file) => {
    const packages = staticPackages(file);
    expect(packages.has("react")).toBe(true);
    for (const name of FORM_LIBRARIES) expect(packages, name).not.toContain(name);
  });

  it.each(["components/batches/file-source.tsx", "app/(dashboard)/admin/audit/audit-filters.tsx", "app/(dashboard)/p/[project]/domains/domains-screen.tsx", "components/batches/job-rows.tsx"])(
    "%s does not load zod",
    (file) => expect(staticPackages(file)).not.toContain("zod"),
  );

  it("the forms themselves do load them (the walk finds what is there)", () => {
    expect(staticPackages("components/suppressions/add-suppression-dialog-form.tsx")).toContain("zod");
  });
});
