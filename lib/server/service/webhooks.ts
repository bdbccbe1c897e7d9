import "server-only";
import { z } from "zod";
import type { CreateWebhookRequest } from "@/lib/schemas/webhooks";
import { callService } from "./client";
import { pagedList } from "./page-size";
import { seg } from "./path";
import { webhookReader } from "./readers";

export const webhooks = {
  list: pagedList("/v1/webhooks", webhookReader, "webhook"),

  /** The answer carries the one-time `signingSecret`: show it once, never store or log it. */
  create: async (project: string, body: CreateWebhookRequest) =>
    callService({ method: "POST", path: "/v1/webhooks", project, body, schema: webhookReader }),

  /** 204 without a body (any 2xx and any body will do); the interface does not list the project header here, it is sent anyway. */
  remove: async (project: string, id: string) =>
    callService({ method: "DELETE", path: `/v1/webhooks/${seg(id)}`, project, schema: z.unknown() }).then(() => undefined),
};
