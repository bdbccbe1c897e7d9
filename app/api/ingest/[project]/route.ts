import { ingestRoute } from "@/lib/server/event-stream/ingest-response";

/** The service's signed deliveries; see `ingestRoute` (the fast path answers most before Next). */
export const POST = ingestRoute;
