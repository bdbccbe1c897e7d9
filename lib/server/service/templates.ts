import "server-only";
import { page, previewResponse, template, type PageQuery, type PreviewRequest } from "@/lib/schemas";
import { callService } from "../service-client";
import { seg } from "./path";

export const templates = {
  list: async (project: string, query: Partial<PageQuery> = {}) =>
    callService({ method: "GET", path: "/v1/templates", project, query, schema: page(template) }),

  get: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/templates/${seg(id)}`, project, schema: template }),

  /** Rendering has no side effect, but it is a POST: not retried (no Idempotency-Key in the interface). */
  preview: async (project: string, body: PreviewRequest) =>
    callService({ method: "POST", path: "/v1/templates/preview", project, body, schema: previewResponse }),
};
