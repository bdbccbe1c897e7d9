import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import {
  createUserResponse,
  endSessionsResponse,
  resetPasswordResponse,
  userList,
  type CreateUserRequest,
  type UpdateUserRequest,
  type UserProjectsRequest,
  type UserView,
} from "@/lib/schemas/users";

export const userKeys = {
  all: ["users"] as const,
  list: () => [...userKeys.all, "list"] as const,
};

export function usersQuery() {
  return queryOptions({
    queryKey: userKeys.list(),
    queryFn: async ({ signal }) => (await api.get<{ data: UserView[] }>("/api/admin/users", { signal, schema: userList })).data,
  });
}

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

export const userMutations = {
  create: (body: CreateUserRequest) => api.post("/api/admin/users", body, { schema: createUserResponse }) as Promise<{ user: UserView; password: string | null }>,
  // Write responses are not needed (the list is refetched), so they are not parsed: a
  // successful write must never look failed because of an unexpected response shape.
  update: (id: string, body: UpdateUserRequest) => api.patch(userPath(id), body),
  setProjects: (id: string, body: UserProjectsRequest) => api.put(`${userPath(id)}/projects`, body),
  resetPassword: (id: string) => api.post(`${userPath(id)}/password`, {}, { schema: resetPasswordResponse }) as Promise<{ password: string }>,
  endSessions: (id: string) => api.delete(`${userPath(id)}/sessions`, { schema: endSessionsResponse }) as Promise<{ ended: number }>,
};
