import "server-only";
import type { CreateApiKeyRequest } from "@/lib/schemas/api-keys";
import { callService } from "./client";
import { seg } from "./path";
import { anyAnswer, createdKeyReader } from "./readers";

export const apiKeys = {
  /** The answer carries the one-time `secret`: show it once, never store or log it. */
  create: async (project: string | null, body: CreateApiKeyRequest) =>
    callService({ method: "POST", path: "/v1/api-keys", project, body, schema: createdKeyReader }),

  /**
   * Beyond the interface (it lists no way to revoke a key): the bundled service answers
   * DELETE /v1/api-keys/{id} with 204. A service without it answers 404 or 405, which the
   * caller (lib/server/api-keys) takes as "not supported".
   */
  revoke: async (project: string | null, id: string) =>
    callService({ method: "DELETE", path: `/v1/api-keys/${seg(id)}`, project, schema: anyAnswer }).then(() => undefined),
};
