import { lazySchema } from "@/lib/api-client";
import { apiQuery } from "./builders";
import type { StreamStatus } from "@/lib/schemas/event-stream";

const eventStreamSchemas = () => import("@/lib/schemas/event-stream");

export const streamStatusKeys = { detail: (project: string) => ["event-stream-status", project] as const };

/** Refreshed while the screen is open: the counts and the mode move with the mail. */
export function streamStatusQuery(project: string, initialData?: StreamStatus) {
  return apiQuery(streamStatusKeys.detail(project), `/api/p/${encodeURIComponent(project)}/event-stream/status`, lazySchema(eventStreamSchemas, "streamStatus"), {}, { initialData, refetchInterval: 10_000 });
}
