import { api, lazySchema } from "@/lib/api-client";
import type { WebhookTestRequest } from "@/lib/schemas/webhook-test";

const webhookTestSchemas = () => import("@/lib/schemas/webhook-test");

export const webhookTestMutations = {
  send: (project: string, body: WebhookTestRequest) =>
    api.post(`/api/p/${encodeURIComponent(project)}/webhook-test`, body, { schema: lazySchema(webhookTestSchemas, "webhookTestResult") }),
};
