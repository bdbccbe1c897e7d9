import { projectSlug } from "@/lib/schemas/params";
import { webhookTestRequest } from "@/lib/schemas/webhook-test";
import { route } from "@/lib/server/gate/route";
import { testEndpoint } from "@/lib/server/webhook-tools/test-endpoint";

/** "Test an endpoint": a sample event to a URL, optionally signed (lib/server/webhook-tools/test-endpoint.ts). */
export const POST = route("webhooks:write", { params: { project: projectSlug }, body: webhookTestRequest }, async ({ body, user, project }) => testEndpoint(project, user, body));
