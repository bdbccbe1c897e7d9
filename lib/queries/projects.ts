import { api, lazySchema, noContent } from "@/lib/api-client";
import { apiRowsQuery } from "./builders";
import type { CreateProjectRequest, UpdateProjectRequest } from "@/lib/schemas/projects";

const projectsSchemas = () => import("@/lib/schemas/projects");

export const projectKeys = {
  all: ["projects"] as const,
  list: () => [...projectKeys.all, "list"] as const,
};

export const projectsQuery = () => apiRowsQuery(projectKeys.list(), "/api/projects", lazySchema(projectsSchemas, "projectList"));

const projectPath = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

export const projectMutations = {
  register: (body: CreateProjectRequest) => api.post("/api/projects", body, { schema: lazySchema(projectsSchemas, "project") }),
  rename: (id: string, body: UpdateProjectRequest) => api.patch(projectPath(id), body, { schema: lazySchema(projectsSchemas, "project") }),
  remove: (id: string) => api.delete(projectPath(id), { schema: noContent }),
};
