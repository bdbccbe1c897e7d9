import "server-only";
import type { PageQuery, PreviewRequest } from "@/lib/schemas";
import { callService } from "./client";
import { listQuery } from "./page-size";
import { seg } from "./path";
import { pageReader, previewReader, templateReader } from "./readers";

const templatePage = pageReader(templateReader, "template");

export const templates = {
  list: async (project: string, query: Partial<PageQuery> = {}) =>
    callService({ method: "GET", path: "/v1/templates", project, query: listQuery(query), schema: templatePage }),

  get: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/templates/${seg(id)}`, project, schema: templateReader }),

  /**
   * Rendering has no side effect, but it is a POST: not retried (no Idempotency-Key in the
   * interface). The answer's shape is not shown; variables the service does not list are
   * worked out from the draft sent.
   */
  preview: async (project: string, body: PreviewRequest) =>
    callService({ method: "POST", path: "/v1/templates/preview", project, body, schema: previewReader(body) }),
};
