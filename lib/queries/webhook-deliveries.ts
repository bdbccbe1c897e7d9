import { api, lazySchema } from "@/lib/api-client";
import { apiQuery } from "./builders";

const deliverySchemas = () => import("@/lib/schemas/webhook-deliveries");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/event-stream/deliveries`;

export const deliveryLogKeys = { list: (project: string) => ["webhook-deliveries", project] as const };

/** The delivery log, refreshed while it is open: deliveries keep arriving. */
export const deliveryLogQuery = (project: string) =>
  apiQuery(deliveryLogKeys.list(project), base(project), lazySchema(deliverySchemas, "webhookDeliveryList"), {}, { refetchInterval: 10_000 });

export const deliveryLogMutations = {
  processAgain: (project: string, id: string) => api.post(`${base(project)}/${encodeURIComponent(id)}/process`, {}, { schema: lazySchema(deliverySchemas, "processAgainResult") }),
};
