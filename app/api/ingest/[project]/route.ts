import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { ingestResponse } from "@/lib/server/event-stream/ingest-response";
import { readRequestText } from "@/lib/server/route";

/**
 * The service's signed deliveries for one project. Not behind `route()`: the caller is the
 * service, not a signed-in browser — the Standard Webhooks signature is the authentication.
 * Anyone can reach it, so the body is read as a stream and refused past MAX_REQUEST_BYTES
 * without ever holding more than that.
 *
 * Under `next start` most deliveries never get here: the server's fast path
 * (lib/server/event-stream/fast-path.ts) answers them before Next routes the request, with
 * the same function. This route serves whatever the fast path leaves to Next (`next dev`,
 * unusual paths).
 */
export async function POST(req: Request, ctx: { params: Promise<{ project: string }> }): Promise<Response> {
  const { project } = await ctx.params;
  return ingestResponse(project, () => readRequestText(req, MAX_REQUEST_BYTES), req.headers, () => req);
}
