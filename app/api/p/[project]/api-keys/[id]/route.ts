import { projectSlug, serviceId } from "@/lib/schemas/params";
import { revokeApiKey } from "@/lib/server/api-keys";
import { route } from "@/lib/server/gate/route";

/**
 * Revokes a key made through the dashboard, on a service that offers it; otherwise 409
 * `revoke_unsupported` says to revoke it at the provider. Account-wide keys need an admin
 * with every project.
 */
export const DELETE = route("api_keys:write", { params: { project: projectSlug, id: serviceId } }, async ({ params, user, project }) =>
  revokeApiKey(user, project, params.id),
);
