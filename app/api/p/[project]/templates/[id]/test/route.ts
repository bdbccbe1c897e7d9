import { z } from "zod";
import { parseBody, route } from "@/lib/server/route";
import { sendTemplateTest } from "@/lib/server/templates/test-send";

export const POST = route<{ project: string; id: string }>("messages:send", async ({ req, project, user }) => {
  const sent = await sendTemplateTest(project, user, await parseBody(req, z.unknown()), req.headers.get("idempotency-key"));
  return Response.json(sent, { status: 202 });
});
