import { eraseRecipientRequest } from "@/lib/schemas/erasure";
import { emailParam, projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { eraseRecipient } from "@/lib/server/retention/erase";

/** Erases one address's data from the dashboard's own records; the body repeats the address. */
export const POST = route("recipients:erase", { params: { project: projectSlug, email: emailParam }, body: eraseRecipientRequest }, async ({ params, body, project, user }) =>
  eraseRecipient(project, user, params.email, body),
);
