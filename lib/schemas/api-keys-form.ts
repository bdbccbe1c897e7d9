import { z } from "zod";
import { apiKeyScope, createApiKeyRequest } from "./api-keys";

/**
 * The "create API key" form and the dashboard route's body, built from the wire shape:
 * the browser never names a project (senderId) — it chooses "this project" (the default) or
 * "account-wide" and the server fills in the project the guard resolved.
 */
export const API_KEY_REACH = ["project", "account"] as const;
export const createApiKeyForm = z.object({
  name: createApiKeyRequest.shape.name,
  reach: z.enum(API_KEY_REACH, { error: "must be project or account" }).default("project"),
  scopes: z.array(apiKeyScope, { error: "is required" }).min(1, { error: "choose at least one scope" }),
});
export type CreateApiKeyForm = z.input<typeof createApiKeyForm>;

/** One key as the dashboard lists it: never the secret. */
export const apiKeyListItem = z.object({
  id: z.string(),
  name: z.string(),
  /** External id of the project; null for an account-wide key. */
  project: z.string().nullable(),
  scopes: z.array(z.string()),
  createdByEmail: z.string(),
  createdAt: z.string(),
  /** Set once revoked through the dashboard. */
  revokedAt: z.string().nullable(),
  revokedByEmail: z.string().nullable(),
});
export type ApiKeyListItem = z.infer<typeof apiKeyListItem>;

/**
 * Whether the service can revoke keys through its API. The interface has no such operation;
 * the bundled service adds one. "unknown" until the first try: a service answering 404/405
 * lacks it, and keys must then be revoked in the provider's own console.
 */
export const KEY_REVOKE_SUPPORT = ["unknown", "supported", "unsupported"] as const;
export type KeyRevokeSupport = (typeof KEY_REVOKE_SUPPORT)[number];
export const apiKeyList = z.object({ data: z.array(apiKeyListItem), revoke: z.enum(KEY_REVOKE_SUPPORT) });
export type ApiKeyList = z.infer<typeof apiKeyList>;

/** The create answer: the key as listed plus the one-time secret. */
export const createdApiKey = apiKeyListItem.extend({ secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;
