import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { CreateProjectRequest, ProjectView, UpdateProjectRequest } from "@/lib/schemas/projects";

export const projectKeys = {
  all: ["projects"] as const,
  list: () => [...projectKeys.all, "list"] as const,
};

export function projectsQuery() {
  return queryOptions({
    queryKey: projectKeys.list(),
    queryFn: async ({ signal }) => (await api.get<{ data: ProjectView[] }>("/api/projects", { signal })).data,
  });
}

const projectPath = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

export const projectMutations = {
  // The list is refetched after a write, so write responses are not parsed.
  register: (body: CreateProjectRequest) => api.post("/api/projects", body),
  rename: (id: string, body: UpdateProjectRequest) => api.patch(projectPath(id), body),
  remove: (id: string) => api.delete(projectPath(id)),
};
