import "server-only";
import type { AddSuppressionRequest, PageQuery } from "@/lib/schemas";
import { callService } from "./client";
import { listQuery } from "./page-size";
import { pageReader, suppressionReader } from "./readers";

const suppressionPage = pageReader(suppressionReader, "suppression");

export const suppressions = {
  list: async (project: string, query: Partial<PageQuery> = {}) =>
    callService({ method: "GET", path: "/v1/suppressions", project, query: listQuery(query), schema: suppressionPage }),

  add: async (project: string, body: AddSuppressionRequest) =>
    callService({ method: "POST", path: "/v1/suppressions", project, body, schema: suppressionReader }),
};
