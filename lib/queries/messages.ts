import { apiQuery } from "./builders";
import { api, lazySchema } from "@/lib/api-client";
import type { InboundSimulateRequest } from "@/lib/schemas/emails";
import type { MessageDetail, ReplyForm } from "@/lib/schemas/messages-index";

const messagesIndexSchemas = () => import("@/lib/schemas/messages-index");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}`;
const messagePath = (project: string, id: string) => `${base(project)}/messages/${encodeURIComponent(id)}`;

export const messageKeys = {
  all: (project: string) => ["messages", project] as const,
  detail: (project: string, id: string) => [...messageKeys.all(project), "detail", id] as const,
};

/** How often a message that is still moving is asked again at first: the timeline updates by itself. */
export const DETAIL_REFRESH_MS = 2_000;
/** The longest wait between two asks while a message is quiet but not settled yet. */
export const DETAIL_REFRESH_MAX_MS = 15_000;

/**
 * The next poll of a message that is not settled: every 2 s while it just changed, backing
 * off gently the longer it stays quiet (a tenth of the quiet time, at most 15 s). A settled
 * message is not polled at all.
 */
export function detailRefreshMs(detail: Pick<MessageDetail, "settled" | "lastChangedAt"> | undefined, now = Date.now()): number | false {
  if (!detail || detail.settled) return false;
  const last = detail.lastChangedAt ? Date.parse(detail.lastChangedAt) : NaN;
  const quiet = Number.isFinite(last) ? Math.max(0, now - last) : DETAIL_REFRESH_MAX_MS * 10;
  return Math.round(Math.min(DETAIL_REFRESH_MAX_MS, Math.max(DETAIL_REFRESH_MS, quiet / 10)));
}

export function messageDetailQuery(project: string, id: string, initialData?: MessageDetail) {
  return apiQuery(messageKeys.detail(project, id), `${messagePath(project, id)}/detail`, lazySchema(messagesIndexSchemas, "messageDetail"), {}, {
    initialData,
    // The server handed over the first answer: it is not asked again as the screen mounts (which
    // would also load the answer's schema right away), only when revisited after this, and by
    // the polling of messages still moving.
    staleTime: 2_000,
    refetchInterval: (query) => detailRefreshMs(query.state.data),
  });
}

export const messageMutations = {
  reply: (project: string, id: string, body: ReplyForm) =>
    api.post(`${messagePath(project, id)}/reply`, body, { schema: lazySchema(messagesIndexSchemas, "replyResult") }),
  simulate: (project: string, body: InboundSimulateRequest) =>
    api.post(`${base(project)}/inbound/simulate`, body, { schema: lazySchema(messagesIndexSchemas, "simulateResult") }),
  connectStream: (project: string) => api.post(`${base(project)}/event-stream`, {}, { schema: lazySchema(messagesIndexSchemas, "eventStreamState") }),
};
