import { api, lazySchema } from "@/lib/api-client";
import { apiQuery, cursorListKeys } from "./builders";
import type { AddSuppressionRequest, BulkSuppressionCheckRequest, BulkSuppressionRequest } from "@/lib/schemas/suppressions";

const suppressionsSchemas = () => import("@/lib/schemas/suppressions");
const batchSchemas = () => import("@/lib/schemas/batch");

export const suppressionsBase = (project: string) => `/api/p/${encodeURIComponent(project)}/suppressions`;

export const suppressionKeys = cursorListKeys("suppressions");

export const suppressionsQuery = (project: string, cursor: string | null) =>
  apiQuery(suppressionKeys.list(project, cursor), suppressionsBase(project), lazySchema(suppressionsSchemas, "suppressionRowPage"), { query: { cursor } });

export const suppressionMutations = {
  add: (project: string, body: AddSuppressionRequest) => api.post(suppressionsBase(project), body, { schema: lazySchema(suppressionsSchemas, "suppression") }),
  /** Suppressions in bulk: the list's check (nothing added), then the job that adds it (its progress: lib/queries/batches.ts, kind `suppressions`). */
  checkBulk: (project: string, body: BulkSuppressionCheckRequest) => api.post(`${suppressionsBase(project)}/bulk/check`, body, { schema: lazySchema(batchSchemas, "checkResult") }),
  startBulk: (project: string, body: BulkSuppressionRequest) => api.post(`${suppressionsBase(project)}/bulk`, body, { schema: lazySchema(batchSchemas, "jobCreated") }),
};
