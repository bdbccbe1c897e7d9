import { api, lazySchema } from "@/lib/api-client";
import { apiQuery, cursorListKeys } from "./builders";
import type { AddSuppressionRequest } from "@/lib/schemas/suppressions";

const suppressionsSchemas = () => import("@/lib/schemas/suppressions");

export const suppressionsBase = (project: string) => `/api/p/${encodeURIComponent(project)}/suppressions`;

export const suppressionKeys = cursorListKeys("suppressions");

export const suppressionsQuery = (project: string, cursor: string | null) =>
  apiQuery(suppressionKeys.list(project, cursor), suppressionsBase(project), lazySchema(suppressionsSchemas, "suppressionRowPage"), { query: { cursor } });

export const suppressionMutations = {
  add: (project: string, body: AddSuppressionRequest) => api.post(suppressionsBase(project), body, { schema: lazySchema(suppressionsSchemas, "suppression") }),
};
