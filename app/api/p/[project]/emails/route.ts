import { sendEmailRequest } from "@/lib/schemas/emails";
import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { sendComposed } from "@/lib/server/compose/send";

/** Compose: the body is the POST /v1/emails body, validated again here; the key comes from the browser's compose session. */
export const POST = route("messages:send", { params: { project: projectSlug }, body: sendEmailRequest }, async ({ req, body, project, user }) => {
  const sent = await sendComposed(project, user, body, req.headers.get("idempotency-key"));
  return Response.json(sent, { status: 202 });
});
