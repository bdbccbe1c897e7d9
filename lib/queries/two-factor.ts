import { api, apiFetch, lazySchema } from "@/lib/api-client";
import type { TwoFactorPolicy } from "@/lib/schemas/two-factor";
import { apiQuery } from "./builders";

const schemas = () => import("@/lib/schemas/two-factor");
const BASE = "/api/account/two-factor";

export const twoFactorKeys = { status: () => ["account", "two-factor"] as const };

export const twoFactorQuery = () => apiQuery(twoFactorKeys.status(), BASE, lazySchema(schemas, "twoFactorStatus"));

/** The answers with secrets in them (the enrolment, recovery codes) stay in their mutation only (rule 7). */
export const twoFactorMutations = {
  startTotp: () => api.post(`${BASE}/totp`, {}, { schema: lazySchema(schemas, "totpEnrolment") }),
  confirmTotp: (code: string) => api.post(`${BASE}/totp/confirm`, { code }, { schema: lazySchema(schemas, "recoveryCodesResponse") }),
  disableTotp: (code: string) => apiFetch(`${BASE}/totp`, { method: "DELETE", body: { code }, schema: lazySchema(schemas, "twoFactorStatus") }),
  regenerateRecoveryCodes: () => api.post(`${BASE}/recovery-codes`, {}, { schema: lazySchema(schemas, "recoveryCodesResponse") }),
};

const passkeySchemas = () => import("@/lib/schemas/passkeys");
const PASSKEYS = `${BASE}/passkeys`;

/**
 * Passkeys: adding one is a ceremony of three steps (the server's options, the browser's
 * prompt, the answer back), written here as one write so a screen calls it as one mutation.
 * Each answers the user's passkeys.
 */
export const passkeyMutations = {
  add: async (name?: string) => {
    const { createPasskeyInBrowser } = await import("@/lib/passkeys/browser");
    const options = await api.post(`${PASSKEYS}/options`, {}, { schema: lazySchema(passkeySchemas, "passkeyOptions") });
    const response = await createPasskeyInBrowser(options);
    return api.post(PASSKEYS, { ...(name ? { name } : {}), response }, { schema: lazySchema(passkeySchemas, "passkeyList") });
  },
  rename: (id: string, name: string) => api.patch(`${PASSKEYS}/${encodeURIComponent(id)}`, { name }, { schema: lazySchema(passkeySchemas, "passkeyList") }),
  remove: (id: string) => api.delete(`${PASSKEYS}/${encodeURIComponent(id)}`, { schema: lazySchema(passkeySchemas, "passkeyList") }),
};

const POLICY = "/api/admin/two-factor-policy";
export const twoFactorPolicyKeys = { policy: () => ["admin", "two-factor-policy"] as const };
export const twoFactorPolicyQuery = () => apiQuery(twoFactorPolicyKeys.policy(), POLICY, lazySchema(schemas, "twoFactorPolicy"));
export const twoFactorPolicyMutations = {
  set: (body: TwoFactorPolicy) => api.put(POLICY, body, { schema: lazySchema(schemas, "twoFactorPolicy") }),
};
