import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { InboundSimulateRequest } from "@/lib/schemas/emails";
import { eventStreamState, messageDetail, replyResult, simulateResult, type MessageDetail, type ReplyForm } from "@/lib/schemas/messages-index";

const base = (project: string) => `/api/p/${encodeURIComponent(project)}`;
const messagePath = (project: string, id: string) => `${base(project)}/messages/${encodeURIComponent(id)}`;

export const messageKeys = {
  all: (project: string) => ["messages", project] as const,
  detail: (project: string, id: string) => [...messageKeys.all(project), "detail", id] as const,
};

/** How often a message that is not final is asked again: the timeline updates by itself. */
export const DETAIL_REFRESH_MS = 2_000;

export function messageDetailQuery(project: string, id: string, initialData?: MessageDetail) {
  return queryOptions({
    queryKey: messageKeys.detail(project, id),
    queryFn: async ({ signal }) => api.get<MessageDetail>(`${messagePath(project, id)}/detail`, { signal, schema: messageDetail }),
    initialData,
    // The server handed over the first answer; polling starts only for messages still moving.
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && !query.state.data.final ? DETAIL_REFRESH_MS : false),
  });
}

export const messageMutations = {
  reply: (project: string, id: string, body: ReplyForm) =>
    api.post(`${messagePath(project, id)}/reply`, body, { schema: replyResult }) as Promise<{ id: string; status: string }>,
  simulate: (project: string, body: InboundSimulateRequest) =>
    api.post(`${base(project)}/inbound/simulate`, body, { schema: simulateResult }) as Promise<{ id: string | null; message: Record<string, unknown> }>,
  connectStream: (project: string) => api.post(`${base(project)}/event-stream`, {}, { schema: eventStreamState }),
};
