import { parseBody, route } from "@/lib/server/route";
import { sendComposed } from "@/lib/server/compose/send";
import { z } from "zod";

/** Compose: the body is the POST /v1/emails body, validated again here; the key comes from the browser's compose session. */
export const POST = route<{ project: string }>("messages:send", async ({ req, project, user }) => {
  const sent = await sendComposed(project, user, await parseBody(req, z.unknown()), req.headers.get("idempotency-key"));
  return Response.json(sent, { status: 202 });
});
