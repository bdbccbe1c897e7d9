import { inboundSimulateRequest, message as messageShape } from "../../contract/wire";
import type { App } from "../context";
import { requireProject } from "../lib/auth";
import { storeInbound } from "../lib/inbound";
import { eventsOf, toMessage } from "../lib/messages";
import { errorResponses, jsonAnswer, jsonBody, projectHeaders, routesTagged } from "./shared";

const simulate = routesTagged("Inbound")({
  method: "post", path: "/v1/inbound/simulate",
  request: { headers: projectHeaders, body: jsonBody(inboundSimulateRequest) },
  responses: {
    200: jsonAnswer("The stored inbound message (status `received`), as GET /v1/emails/{id} returns it", messageShape),
    ...errorResponses,
  },
});

export function register(app: App) {
  app.openapi(simulate, async (c) => {
    const project = await requireProject(c, "inbound:write");
    const body = c.req.valid("json");
    const db = c.get("deps").db;
    // A simulation is a test aid: it is stored for the named project whatever the `to` domain.
    const row = await db.transaction((tx) => storeInbound(tx, {
      projectId: project.id,
      from: { email: body.from },
      to: [{ email: body.to }],
      subject: body.subject,
      html: body.html ?? null,
      text: body.text ?? null,
      source: "simulate",
    }));
    c.get("deps").kick();
    return c.json(toMessage(row, await eventsOf(db, row.id)), 200);
  });
}
