import "server-only";
import type { CreateApiKeyRequest } from "@/lib/schemas";
import { callService } from "../service-client";
import { createdKeyReader } from "./readers";

export const apiKeys = {
  /** The answer carries the one-time `secret`: show it once, never store or log it. */
  create: async (project: string | null, body: CreateApiKeyRequest) =>
    callService({ method: "POST", path: "/v1/api-keys", project, body, schema: createdKeyReader }),
};
