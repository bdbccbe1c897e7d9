import "server-only";
import type { AddSuppressionRequest } from "@/lib/schemas/suppressions";
import { callService } from "./client";
import { pagedList } from "./page-size";
import { suppressionReader } from "./readers";

export const suppressions = {
  list: pagedList("/v1/suppressions", suppressionReader, "suppression"),

  add: async (project: string, body: AddSuppressionRequest) =>
    callService({ method: "POST", path: "/v1/suppressions", project, body, schema: suppressionReader }),
};
