import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import {
  createUserResponse,
  endSessionsResponse,
  reconfirmResponse,
  resetPasswordResponse,
  userList,
  userView,
  type CreateUserRequest,
  type UpdateUserRequest,
  type UserProjectsRequest,
} from "@/lib/schemas/users";

export const userKeys = {
  all: ["users"] as const,
  list: () => [...userKeys.all, "list"] as const,
};

export function usersQuery() {
  return queryOptions({
    queryKey: userKeys.list(),
    queryFn: async ({ signal }) => (await api.get("/api/admin/users", { signal, schema: userList })).data,
  });
}

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

export const userMutations = {
  create: (body: CreateUserRequest) => api.post("/api/admin/users", body, { schema: createUserResponse }),
  update: (id: string, body: UpdateUserRequest) => api.patch(userPath(id), body, { schema: userView }),
  setProjects: (id: string, body: UserProjectsRequest) => api.put(`${userPath(id)}/projects`, body, { schema: userView }),
  resetPassword: (id: string) => api.post(`${userPath(id)}/password`, {}, { schema: resetPasswordResponse }),
  /** The signed-in user confirms their own password before a write that needs it. */
  reconfirm: (password: string) => api.post("/api/auth/reconfirm", { password }, { schema: reconfirmResponse }),
  endSessions: (id: string) => api.delete(`${userPath(id)}/sessions`, { schema: endSessionsResponse }),
};
