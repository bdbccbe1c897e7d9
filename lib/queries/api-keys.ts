import { apiQuery } from "./builders";
import { api, lazySchema } from "@/lib/api-client";
import type { CreateApiKeyForm } from "@/lib/schemas/api-keys-form";

const apiKeysFormSchemas = () => import("@/lib/schemas/api-keys-form");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/api-keys`;

export const apiKeyKeys = { all: (project: string) => ["api-keys", project] as const };

/** The list never holds a secret; the created key's secret lives only in a mutation that is reset on close. */
export function apiKeysQuery(project: string) {
  return apiQuery(apiKeyKeys.all(project), base(project), lazySchema(apiKeysFormSchemas, "apiKeyList"));
}

export const apiKeyMutations = {
  create: (project: string, body: CreateApiKeyForm) => api.post(base(project), body, { schema: lazySchema(apiKeysFormSchemas, "createdApiKey") }),
  revoke: (project: string, id: string) => api.delete(`${base(project)}/${encodeURIComponent(id)}`, { schema: lazySchema(apiKeysFormSchemas, "apiKeyListItem") }),
};
