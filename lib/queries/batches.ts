import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { BatchRowOutcome, BatchRowStatus } from "@/lib/schemas/batch";
import type { BatchCheckRequest, BatchJobRequest, ContactImportRequest } from "@/lib/schemas/compose";

export type JobView = {
  id: string;
  kind: "send" | "contacts";
  status: "running" | "done";
  fileName: string | null;
  totalRows: number;
  retryRound: number;
  counts: Record<BatchRowStatus, number>;
  createdByEmail: string;
  createdAt: string;
  finishedAt: string | null;
  content: Record<string, unknown>;
};
export type CheckResult = {
  summary: { total: number; toSend: number; invalid: number; suppressed: number; duplicate: number };
  problems: { row: number; email: string; name: string | null; status: BatchRowStatus; error: { message: string; code: string; field: string } | null }[];
};

const p = (project: string) => `/api/p/${encodeURIComponent(project)}`;

export const batchKeys = {
  all: (project: string) => ["batches", project] as const,
  job: (project: string, id: string) => [...batchKeys.all(project), "job", id] as const,
  rows: (project: string, id: string, status: string | null, after: number | null) => [...batchKeys.all(project), "rows", id, status, after] as const,
};

/** Polled every second while the job runs; polling also resumes a job a restart left behind. */
/** Send jobs live under /batches, contact imports under /contacts/import (each with its own permission). */
export const jobBase = (project: string, kind: JobView["kind"]) => `${p(project)}/${kind === "send" ? "batches" : "contacts/import"}`;

export function jobQuery(project: string, id: string, kind: JobView["kind"] = "send") {
  return queryOptions({
    queryKey: batchKeys.job(project, id),
    queryFn: ({ signal }) => api.get<JobView>(`${jobBase(project, kind)}/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (q) => (q.state.data?.status === "done" ? false : 1000),
  });
}

export function jobRowsQuery(project: string, id: string, status: string | null, after: number | null, running: boolean, kind: JobView["kind"] = "send") {
  return queryOptions({
    queryKey: batchKeys.rows(project, id, status, after),
    queryFn: ({ signal }) =>
      api.get<{ data: BatchRowOutcome[]; nextAfter: number | null }>(`${jobBase(project, kind)}/${encodeURIComponent(id)}/rows`, { signal, query: { status, after, limit: 100 } }),
    refetchInterval: running ? 2000 : false,
    placeholderData: (prev) => prev,
  });
}

export const batchMutations = {
  check: (project: string, body: BatchCheckRequest) => api.post<CheckResult>(`${p(project)}/batches/check`, body),
  start: (project: string, body: BatchJobRequest) => api.post<{ id: string }>(`${p(project)}/batches`, body),
  retry: (project: string, id: string, kind: JobView["kind"] = "send") => api.post<{ retried: number }>(`${jobBase(project, kind)}/${encodeURIComponent(id)}/retry`, {}),
  importContacts: (project: string, body: ContactImportRequest) => api.post<{ id: string }>(`${p(project)}/contacts/import`, body),
};

export const resultsHref = (project: string, id: string, kind: JobView["kind"] = "send") => `${jobBase(project, kind)}/${encodeURIComponent(id)}/results`;
