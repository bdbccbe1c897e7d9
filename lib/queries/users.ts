import { api, lazySchema } from "@/lib/api-client";
import { apiRowsQuery } from "./builders";
import type { CreateUserRequest, UpdateUserRequest, UserProjectsRequest } from "@/lib/schemas/users";

const usersSchemas = () => import("@/lib/schemas/users");

export const userKeys = {
  all: ["users"] as const,
  list: () => [...userKeys.all, "list"] as const,
};

export const usersQuery = () => apiRowsQuery(userKeys.list(), "/api/admin/users", lazySchema(usersSchemas, "userList"));

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

export const userMutations = {
  create: (body: CreateUserRequest) => api.post("/api/admin/users", body, { schema: lazySchema(usersSchemas, "createUserResponse") }),
  update: (id: string, body: UpdateUserRequest) => api.patch(userPath(id), body, { schema: lazySchema(usersSchemas, "userView") }),
  setProjects: (id: string, body: UserProjectsRequest) => api.put(`${userPath(id)}/projects`, body, { schema: lazySchema(usersSchemas, "userView") }),
  resetPassword: (id: string) => api.post(`${userPath(id)}/password`, {}, { schema: lazySchema(usersSchemas, "resetPasswordResponse") }),
  /** The signed-in user confirms their own password before a write that needs it. */
  /** …or, `{ code }`, with a code of their second factor (the authenticator app's, or a recovery code). */
  reconfirm: (password: string, by: "password" | "code" = "password") => api.post("/api/auth/reconfirm", { [by]: password }, { schema: lazySchema(usersSchemas, "reconfirmResponse") }),
  /** The step-up with a passkey: the server's challenge, the browser's prompt, the answer back — one write. */
  reconfirmWithPasskey: async () => {
    const { assertPasskeyInBrowser } = await import("@/lib/passkeys/browser");
    const options = await api.post("/api/auth/reconfirm/passkey", {}, { schema: lazySchema(() => import("@/lib/schemas/passkeys"), "passkeyOptions") });
    const assertion = await assertPasskeyInBrowser(options);
    return api.post("/api/auth/reconfirm", { assertion }, { schema: lazySchema(usersSchemas, "reconfirmResponse") });
  },
  endSessions: (id: string) => api.delete(`${userPath(id)}/sessions`, { schema: lazySchema(usersSchemas, "endSessionsResponse") }),
  /** Removes the user's second factor (authenticator app, recovery codes, passkeys); their sessions end too. */
  resetTwoFactor: (id: string) => api.delete(`${userPath(id)}/two-factor`, { schema: lazySchema(usersSchemas, "endSessionsResponse") }),
};
