import { api, lazySchema } from "@/lib/api-client";
import type { SendEmail } from "@/lib/schemas/emails";

const emailsSchemas = () => import("@/lib/schemas/emails");

export const composeMutations = {
  /** The key is the compose session's; the same key again replays instead of sending twice. */
  send: (project: string, body: SendEmail, idempotencyKey: string) =>
    api.post(`/api/p/${encodeURIComponent(project)}/emails`, body, {
      headers: { "Idempotency-Key": idempotencyKey },
      schema: lazySchema(emailsSchemas, "sendEmailResponse"),
    }),
};
