import "server-only";
import { AppError } from "@/lib/errors";
import { testSendRequest } from "@/lib/schemas/templates-form";
import type { Actor, Project } from "@/lib/server/access";
import { sendComposed } from "@/lib/server/compose/send";
import { service } from "@/lib/server/service";

/**
 * "Send test to me": the draft rendered by the service and sent to the signed-in user only
 * (the address comes from the session, never from the request), from the project's first
 * verified domain. Sent as rendered content so an unsaved draft can be tested too.
 */
export async function sendTemplateTest(project: Project, actor: Actor, body: unknown, idempotencyKey: string | null) {
  const draft = testSendRequest.parse(body);
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
  return sendComposed(project, actor, request, idempotencyKey, "template_test");
}
