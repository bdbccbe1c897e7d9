import { idParam } from "@/lib/schemas/common";
import { route } from "@/lib/server/route";
import { service } from "@/lib/server/service";
import { indexServiceMessage } from "@/lib/server/messages/lookup";

/**
 * One message with its events, from the service, in the project the guard resolved. A
 * message the index did not know is added to it (issue 4: looked-up messages are indexed).
 */
export const GET = route<{ project: string; id: string }>("messages:read", async ({ params, project }) => {
  const { id } = idParam.parse({ id: params.id });
  const message = await service.emails.get(project!.externalId, id);
  await indexServiceMessage(project!.id, message).catch((e) => console.warn(`index: could not record ${id}:`, e));
  return message;
});
