import "server-only";
import { AppError } from "@/lib/errors";
import type { z } from "zod";
import { sendEmailRequest } from "@/lib/schemas/emails";
import type { testSendRequest } from "@/lib/schemas/templates-form";
import type { Actor, Project } from "@/lib/server/gate/access";
import { sendComposed } from "@/lib/server/compose/send";
import { service } from "@/lib/server/service";

/**
 * "Send test to me": the draft rendered by the service and sent to the signed-in user only
 * (the address comes from the session, never from the request), from the project's first
 * verified domain. Sent as rendered content so an unsaved draft can be tested too.
 */
export async function sendTemplateTest(project: Project, actor: Actor, draft: z.output<typeof testSendRequest>, idempotencyKey: string | null) {
  const [rendered, domains] = await Promise.all([
    service.templates.preview(project.externalId, draft),
    service.domains.list(project.externalId, { status: "verified", limit: 1 }),
  ]);
  const domain = domains.data[0]?.domain;
  if (!domain) throw new AppError(409, "no_verified_domain", "This project has no verified domain to send the test from. Verify one under Domains.");
  const request = {
    from: { email: `test@${domain}`, name: "Template test" },
    to: [{ email: actor.email, ...(actor.name ? { name: actor.name } : {}) }],
    subject: `[Test] ${rendered.subject ?? "(no subject)"}`,
    ...(rendered.html ? { html: rendered.html } : {}),
    ...(rendered.text ? { text: rendered.text } : {}),
    ...(!rendered.html && !rendered.text ? { text: "(this template has no body)" } : {}),
    tags: [{ name: "dashboard", value: "template_test" }],
  };
  // Built from the service's rendering, so checked as any send is before it goes out.
  return sendComposed(project, actor, sendEmailRequest.parse(request), idempotencyKey, "template_test");
}
