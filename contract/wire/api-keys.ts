import { z } from "zod";

/** Scopes the local service enforces; `full_access` implies every other. */
export const API_KEY_SCOPES = [
  "full_access",
  "emails:send",
  "emails:read",
  "domains:read",
  "domains:write",
  "contacts:read",
  "contacts:write",
  "templates:read",
  "suppressions:read",
  "suppressions:write",
  "webhooks:read",
  "webhooks:write",
  "inbound:write",
  "api_keys:write",
] as const;
export const apiKeyScope = z.enum(API_KEY_SCOPES, { error: `must be one of: ${API_KEY_SCOPES.join(", ")}` });
export type ApiKeyScope = z.infer<typeof apiKeyScope>;

export const createApiKeyRequest = z.object({
  name: z.string({ error: "is required" }).trim().min(1, { error: "is required" }).max(100),
  senderId: z.string().trim().min(1).max(200).optional(),
  scopes: z.array(apiKeyScope).min(1, { error: "choose at least one scope" }).optional(),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequest>;

export const createApiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  secret: z.string(),
  /** Local-service extras: the readable start of the secret, the project (null: account-wide), scopes, creation time. */
  prefix: z.string().optional(),
  senderId: z.string().nullable().optional(),
  scopes: z.array(z.string()).optional(),
  createdAt: z.string().optional(),
});
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponse>;
