import { loadActorAndProject, sessionClaimsFromRequest } from "@/lib/server/gate/access";
import { route } from "@/lib/server/gate/route";
import { serviceHealth } from "@/lib/server/service/health";

/**
 * The service's state for the banner; no sign-in needed (scripts wait on it), nothing about
 * the account in it. The reason names the service's address and quotes it, so only a
 * signed-in user gets it; anyone else gets the kind of problem alone.
 */
export const GET = route(null, async ({ req }) => {
  const health = await serviceHealth();
  if (!health.reason) return { service: health };
  const { user } = await loadActorAndProject(await sessionClaimsFromRequest(req));
  return { service: user ? health : { ...health, reason: null } };
});
