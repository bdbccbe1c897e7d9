import "server-only";
import type { PreviewRequest } from "@/lib/schemas/templates";
import { callService } from "./client";
import { pagedList } from "./page-size";
import { seg } from "./path";
import { previewReader, templateReader } from "./readers";

export const templates = {
  list: pagedList("/v1/templates", templateReader, "template"),

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
