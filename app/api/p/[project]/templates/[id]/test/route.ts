import { projectSlug, serviceId } from "@/lib/schemas/params";
import { testSendRequest } from "@/lib/schemas/templates-form";
import { route } from "@/lib/server/gate/route";
import { sendTemplateTest } from "@/lib/server/templates/test-send";

export const POST = route("messages:send", { params: { project: projectSlug, id: serviceId }, body: testSendRequest }, async ({ req, body, project, user }) => {
  const sent = await sendTemplateTest(project, user, body, req.headers.get("idempotency-key"));
  return Response.json(sent, { status: 202 });
});
