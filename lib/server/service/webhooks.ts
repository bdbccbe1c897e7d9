import "server-only";
import { z } from "zod";
import { page, webhook, type CreateWebhookRequest, type PageQuery } from "@/lib/schemas";
import { callService } from "../service-client";
import { seg } from "./path";

export const webhooks = {
  list: async (project: string, query: Partial<PageQuery> = {}) =>
    callService({ method: "GET", path: "/v1/webhooks", project, query, schema: page(webhook) }),

  /** The answer carries the one-time `signingSecret`: show it once, never store or log it. */
  create: async (project: string, body: CreateWebhookRequest) =>
    callService({ method: "POST", path: "/v1/webhooks", project, body, schema: webhook }),

  /** 204 without a body; the interface does not list the project header here, it is sent anyway. */
  remove: async (project: string, id: string) =>
    callService({ method: "DELETE", path: `/v1/webhooks/${seg(id)}`, project, schema: z.unknown() }).then(() => undefined),
};
