import "server-only";
import { page, suppression, type AddSuppressionRequest, type PageQuery } from "@/lib/schemas";
import { callService } from "../service-client";

export const suppressions = {
  list: async (project: string, query: Partial<PageQuery> = {}) =>
    callService({ method: "GET", path: "/v1/suppressions", project, query, schema: page(suppression) }),

  add: async (project: string, body: AddSuppressionRequest) =>
    callService({ method: "POST", path: "/v1/suppressions", project, body, schema: suppression }),
};
