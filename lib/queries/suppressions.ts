import { api, lazySchema } from "@/lib/api-client";
import { cursorListKeys, getQuery } from "./builders";
import type { AddSuppressionRequest } from "@/lib/schemas/suppressions";

const suppressionsSchemas = () => import("@/lib/schemas/suppressions");

export const suppressionsBase = (project: string) => `/api/p/${encodeURIComponent(project)}/suppressions`;

export const suppressionKeys = cursorListKeys("suppressions");

export const suppressionsQuery = (project: string, cursor: string | null) =>
  getQuery(suppressionKeys.list(project, cursor), suppressionsBase(project), lazySchema(suppressionsSchemas, "suppressionRowPage"), { cursor });

export const suppressionMutations = {
  add: (project: string, body: AddSuppressionRequest) => api.post(suppressionsBase(project), body, { schema: lazySchema(suppressionsSchemas, "suppression") }),
};
