import { apiQuery } from "./builders";
import { api, lazySchema } from "@/lib/api-client";
import type { JobKind } from "@/lib/schemas/batch";
import type { BatchCheckRequest, BatchJobRequest, ContactImportRequest } from "@/lib/schemas/compose";

const batchSchemas = () => import("@/lib/schemas/batch");

const p = (project: string) => `/api/p/${encodeURIComponent(project)}`;

export const batchKeys = {
  all: (project: string) => ["batches", project] as const,
  job: (project: string, id: string) => [...batchKeys.all(project), "job", id] as const,
  rows: (project: string, id: string, status: string | null, after: number | null) => [...batchKeys.all(project), "rows", id, status, after] as const,
};

/** Polled every second while the job runs; polling also resumes a job a restart left behind. */
/** Send jobs live under /batches, contact imports under /contacts/import, suppressions added in bulk under /suppressions/bulk (each with its own permission). */
const JOB_PATHS: Record<JobKind, string> = { send: "batches", contacts: "contacts/import", suppressions: "suppressions/bulk" };
export const jobBase = (project: string, kind: JobKind) => `${p(project)}/${JOB_PATHS[kind]}`;

export function jobQuery(project: string, id: string, kind: JobKind = "send") {
  return apiQuery(batchKeys.job(project, id), `${jobBase(project, kind)}/${encodeURIComponent(id)}`, lazySchema(batchSchemas, "jobView"), {}, {
    refetchInterval: (q) => (q.state.data?.status === "done" ? false : 1000),
  });
}

export function jobRowsQuery(project: string, id: string, status: string | null, after: number | null, running: boolean, kind: JobKind = "send") {
  return apiQuery(
    batchKeys.rows(project, id, status, after),
    `${jobBase(project, kind)}/${encodeURIComponent(id)}/rows`,
    lazySchema(batchSchemas, "jobRowsPage"),
    { query: { status, after, limit: 100 } },
    { refetchInterval: running ? 2000 : false, placeholderData: (prev) => prev },
  );
}

export const batchMutations = {
  check: (project: string, body: BatchCheckRequest) => api.post(`${p(project)}/batches/check`, body, { schema: lazySchema(batchSchemas, "checkResult") }),
  start: (project: string, body: BatchJobRequest) => api.post(`${p(project)}/batches`, body, { schema: lazySchema(batchSchemas, "jobCreated") }),
  retry: (project: string, id: string, kind: JobKind = "send") => api.post(`${jobBase(project, kind)}/${encodeURIComponent(id)}/retry`, {}, { schema: lazySchema(batchSchemas, "jobRetried") }),
  importContacts: (project: string, body: ContactImportRequest) => api.post(`${p(project)}/contacts/import`, body, { schema: lazySchema(batchSchemas, "jobCreated") }),
};

export const resultsHref = (project: string, id: string, kind: JobKind = "send") => `${jobBase(project, kind)}/${encodeURIComponent(id)}/results`;
