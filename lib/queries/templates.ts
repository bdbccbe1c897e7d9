import { api, lazySchema, noContent } from "@/lib/api-client";
import type { PreviewRequest } from "@/lib/schemas/templates";
import { apiQuery, apiRowsQuery } from "./builders";
import type { SampleRequest } from "@/lib/schemas/templates-form";

const templatesSchemas = () => import("@/lib/schemas/templates");
const templatesFormSchemas = () => import("@/lib/schemas/templates-form");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/templates`;

export const templateKeys = {
  all: (project: string) => ["templates", project] as const,
  list: (project: string, cursor: string | null) => [...templateKeys.all(project), "list", cursor] as const,
  one: (project: string, id: string) => [...templateKeys.all(project), "one", id] as const,
  samples: (project: string, id: string) => [...templateKeys.all(project), "samples", id] as const,
  preview: (project: string, body: unknown) => [...templateKeys.all(project), "preview", body] as const,
  render: (project: string, id: string, data: unknown) => [...templateKeys.all(project), "render", id, data] as const,
};

export const templatesQuery = (project: string, cursor: string | null) =>
  apiQuery(templateKeys.list(project, cursor), base(project), lazySchema(templatesFormSchemas, "templateList"), { query: { cursor, limit: 20 } });

export const templateQuery = (project: string, id: string) =>
  apiQuery(templateKeys.one(project, id), `${base(project)}/${encodeURIComponent(id)}`, lazySchema(templatesSchemas, "template"));

export function previewQuery(project: string, body: PreviewRequest) {
  return apiQuery(templateKeys.preview(project, body), `${base(project)}/preview`, lazySchema(templatesSchemas, "previewResponse"), { body }, { placeholderData: (prev) => prev });
}

export function renderQuery(project: string, id: string, data: Record<string, unknown>) {
  return apiQuery(templateKeys.render(project, id, data), `${base(project)}/${encodeURIComponent(id)}/render`, lazySchema(templatesSchemas, "previewResponse"), { body: { data } });
}

export const samplesQuery = (project: string, id: string) =>
  apiRowsQuery(templateKeys.samples(project, id), `${base(project)}/${encodeURIComponent(id)}/samples`, lazySchema(templatesFormSchemas, "sampleList"));

export const templateMutations = {
  saveSample: (project: string, id: string, body: SampleRequest) => api.post(`${base(project)}/${encodeURIComponent(id)}/samples`, body, { schema: lazySchema(templatesFormSchemas, "templateSample") }),
  deleteSample: (project: string, id: string, sampleId: string) => api.delete(`${base(project)}/${encodeURIComponent(id)}/samples/${encodeURIComponent(sampleId)}`, { schema: noContent }),
  testSend: (project: string, id: string, body: PreviewRequest, idempotencyKey: string) =>
    api.post(`${base(project)}/${encodeURIComponent(id)}/test`, body, { headers: { "Idempotency-Key": idempotencyKey }, schema: lazySchema(templatesFormSchemas, "testSendResponse") }),
};
